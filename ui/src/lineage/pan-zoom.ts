/**
 * Pan and zoom of the picture: the view's translation and scale, fitted when a new picture arrives, kept steady
 * around the node the reader acted on when the layout changes, moved by dragging the background and by the wheel.
 */
import type { JSX, RefObject } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PlacedNode, Placement } from './layout';

export interface View {
  readonly x: number;
  readonly y: number;
  readonly k: number;
}

const MIN_ZOOM = 0.15;
const MAX_ZOOM = 2.5;
const MARGIN = 40;
/** The least room kept between the picture and the edge of the view when pulling it in. */
const PAD = 12;
/** Below this zoom node labels are too small to read: the first view then shows the root instead of all. */
const READABLE_ZOOM = 0.55;

function clampZoom(k: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));
}

export interface PanZoomOptions {
  readonly placement: Placement;
  readonly byIri: ReadonlyMap<string, PlacedNode>;
  readonly root: string;
  /** Changes when a new picture is loaded: the view is reset. */
  readonly pictureKey: string;
  /** The node to keep in place when the layout changes. */
  readonly anchor: string | undefined;
}

export function usePanZoom(svg: RefObject<SVGSVGElement>, options: PanZoomOptions) {
  const { placement, byIri, root, pictureKey, anchor } = options;
  const [view, setView] = useState<View>({ x: 0, y: 0, k: 1 });
  const viewRef = useRef(view);
  viewRef.current = view;
  const fitted = useRef<string>();
  const previous = useRef<ReadonlyMap<string, PlacedNode>>(new Map());
  const previousSize = useRef({ width: 0, height: 0 });
  const drag = useRef<{ id: number; x: number; y: number } | undefined>();

  const size = () => ({ w: svg.current?.clientWidth ?? 800, h: svg.current?.clientHeight ?? 500 });

  /** The whole picture in the view. */
  const fit = useCallback(() => {
    const { w, h } = size();
    const k = clampZoom(Math.min(1.2, w / (placement.width + MARGIN), h / (placement.height + MARGIN)));
    setView({ k, x: (w - placement.width * k) / 2, y: (h - placement.height * k) / 2 });
  }, [placement]);

  /** The first view: the whole picture when it is legible so, else the root at a readable size. */
  const reset = useCallback(() => {
    const { w, h } = size();
    const k = Math.min(1.2, w / (placement.width + MARGIN), h / (placement.height + MARGIN));
    const centre = placement.nodes.find((placed) => placed.node.iri === root);
    if (k >= READABLE_ZOOM || centre === undefined) {
      fit();
      return;
    }
    // Centred on the root, but with no empty band where the picture could be.
    const z = 0.9;
    const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
    setView({
      k: z,
      x: clamp(w / 2 - centre.x * z, w - MARGIN - placement.width * z, MARGIN),
      y: clamp(h / 2 - centre.y * z, Math.min(MARGIN, h - MARGIN - placement.height * z), MARGIN),
    });
  }, [placement, root, fit]);

  // A new picture is fitted; a changed layout of the same picture keeps the node the reader acted on in place.
  useLayoutEffect(() => {
    if (fitted.current !== pictureKey) {
      fitted.current = pictureKey;
      reset();
    } else if (anchor !== undefined) {
      const before = previous.current.get(anchor);
      const after = byIri.get(anchor);
      const { w, h } = size();
      const { k } = viewRef.current;
      const fitsAt = (box: { width: number; height: number }) =>
        box.width * k <= w - 2 * PAD && box.height * k <= h - 2 * PAD;
      const fitZoom = Math.min(1.2, w / (placement.width + MARGIN), h / (placement.height + MARGIN));
      // A picture seen whole that grew out of the view, but can be seen whole at a legible size, is shown whole.
      if (fitsAt(previousSize.current) && !fitsAt(placement) && fitZoom >= READABLE_ZOOM) fit();
      else if (before !== undefined && after !== undefined) {
        // Keep the node where it was, then pull the picture into the view along any axis where it fits.
        const inside = (at: number, length: number, room: number) =>
          length <= room - 2 * PAD ? Math.min(PAD, Math.max(room - length - PAD, at)) : at;
        setView((v) => ({
          ...v,
          x: inside(v.x + (before.x - after.x) * v.k, placement.width * v.k, w),
          y: inside(v.y + (before.y - after.y) * v.k, placement.height * v.k, h),
        }));
      }
    }
    previous.current = byIri;
    previousSize.current = { width: placement.width, height: placement.height };
  }, [placement, pictureKey, anchor, byIri, reset]);

  const zoomAt = useCallback((factor: number, px?: number, py?: number) => {
    const { w, h } = size();
    setView((v) => {
      const k = clampZoom(v.k * factor);
      const cx = px ?? w / 2;
      const cy = py ?? h / 2;
      return { k, x: cx - ((cx - v.x) * k) / v.k, y: cy - ((cy - v.y) * k) / v.k };
    });
  }, []);

  // Wheel zoom needs a listener that may cancel scrolling, which JSX handlers (passive) cannot.
  useEffect(() => {
    const element = svg.current;
    if (element === null) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const box = element.getBoundingClientRect();
      zoomAt(Math.exp(-event.deltaY * 0.0015), event.clientX - box.left, event.clientY - box.top);
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [zoomAt]);

  const down = (event: JSX.TargetedPointerEvent<SVGSVGElement>) => {
    if ((event.target as Element).closest('.lg-node') !== null || event.button !== 0) return;
    drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const move = (event: JSX.TargetedPointerEvent<SVGSVGElement>) => {
    const start = drag.current;
    if (start === undefined || start.id !== event.pointerId) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    drag.current = { ...start, x: event.clientX, y: event.clientY };
    setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
  };
  const up = () => {
    drag.current = undefined;
  };

  /** Pans so that a node is inside the view. */
  const reveal = (placed: PlacedNode) => {
    const { w, h } = size();
    const v = viewRef.current;
    const sx = placed.x * v.k + v.x;
    const sy = placed.y * v.k + v.y;
    if (sx > MARGIN * 2 && sx < w - MARGIN * 2 && sy > MARGIN && sy < h - MARGIN) return;
    setView({ ...v, x: w / 2 - placed.x * v.k, y: h / 2 - placed.y * v.k });
  };

  return { view, fit, reset, zoomAt, reveal, pointer: { down, move, up } };
}
