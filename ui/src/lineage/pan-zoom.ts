/**
 * Pan and zoom of the picture: the view's translation and scale. The view is fitted to the bounding box of
 * everything drawn when a picture opens, and again whenever its layout changes (a node expanded, a page loaded)
 * until the reader moves the view themselves; from then on a changed layout keeps the node the reader acted on in
 * place, and "Fit to view" returns to the fitted view. Dragging the background pans, the wheel zooms.
 */
import type { JSX, RefObject } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type Box, NODE_HEIGHT, NODE_WIDTH, type PlacedNode, type Placement, boundsOf } from './layout';

export interface View {
  readonly x: number;
  readonly y: number;
  readonly k: number;
}

const MIN_ZOOM = 0.15;
const MAX_ZOOM = 2.5;
/** A fitted view never magnifies more than this (a picture of two nodes is not blown up). */
const MAX_FIT_ZOOM = 1.2;
/** The room kept between the picture and the edges of the view when fitting it. */
const PAD = 16;
/** The room kept at the top for the view buttons laid over the picture. */
const TOP = 48;

export interface PanZoomOptions {
  readonly placement: Placement;
  readonly byIri: ReadonlyMap<string, PlacedNode>;
  /** Changes when a new picture is loaded: the view is fitted again. */
  readonly pictureKey: string;
  /** The node to keep in place when the layout changes. */
  readonly anchor: string | undefined;
  /** Nodes to frame when the picture opens (else the whole picture is). */
  readonly focus: ReadonlySet<string> | undefined;
}

export function usePanZoom(svg: RefObject<SVGSVGElement>, options: PanZoomOptions) {
  const { placement, byIri, pictureKey, anchor, focus } = options;
  const [view, setView] = useState<View>({ x: 0, y: 0, k: 1 });
  const viewRef = useRef(view);
  viewRef.current = view;
  const fitted = useRef<string>();
  /** True while the view follows the whole picture (fitted, and not moved by the reader since). */
  const following = useRef(true);
  /** The zoom of the last fitted view: zooming out may always go that far. */
  const fitZoom = useRef(1);
  const previous = useRef<ReadonlyMap<string, PlacedNode>>(new Map());
  const drag = useRef<{ id: number; x: number; y: number } | undefined>();

  const size = () => ({ w: svg.current?.clientWidth ?? 800, h: svg.current?.clientHeight ?? 500 });
  const clampZoom = (k: number) => Math.min(MAX_ZOOM, Math.max(Math.min(MIN_ZOOM, fitZoom.current), k));

  /** The view that shows the box whole, centred in the room left by the margins. */
  const frame = useCallback((box: Box | undefined) => {
    if (box === undefined) return;
    const { w, h } = size();
    const roomW = Math.max(1, w - 2 * PAD);
    const roomH = Math.max(1, h - TOP - PAD);
    const k = Math.min(MAX_FIT_ZOOM, roomW / Math.max(1, box.width), roomH / Math.max(1, box.height));
    fitZoom.current = k;
    setView({
      k,
      x: PAD + (roomW - box.width * k) / 2 - box.x * k,
      y: TOP + (roomH - box.height * k) / 2 - box.y * k,
    });
  }, []);

  /** The whole picture in the view, followed from now on as it changes. */
  const fit = useCallback(() => {
    following.current = true;
    frame(boundsOf(placement));
  }, [placement, frame]);

  // A new picture is fitted (or framed on the nodes to focus); a changed layout of the same picture is fitted
  // again while the view follows it, else keeps the node the reader acted on in place.
  useLayoutEffect(() => {
    if (fitted.current !== pictureKey) {
      fitted.current = pictureKey;
      const focused = focus === undefined ? undefined : boundsOf(placement, focus);
      if (focused === undefined) fit();
      else {
        frame(focused);
        following.current = false;
      }
    } else if (following.current) fit();
    else if (anchor !== undefined) {
      const before = previous.current.get(anchor);
      const after = byIri.get(anchor);
      if (before !== undefined && after !== undefined)
        setView((v) => ({ ...v, x: v.x + (before.x - after.x) * v.k, y: v.y + (before.y - after.y) * v.k }));
    }
    previous.current = byIri;
  }, [placement, pictureKey, anchor, byIri, focus, fit, frame]);

  // A view that follows the picture is fitted again when the picture's room changes size.
  useEffect(() => {
    const element = svg.current;
    if (element === null || typeof ResizeObserver === 'undefined') return;
    let last = `${element.clientWidth}x${element.clientHeight}`;
    const observer = new ResizeObserver(() => {
      const now = `${element.clientWidth}x${element.clientHeight}`;
      if (now === last) return;
      last = now;
      if (following.current) fit();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [fit]);

  const zoomAt = useCallback((factor: number, px?: number, py?: number) => {
    const { w, h } = size();
    following.current = false;
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
    if (dx === 0 && dy === 0) return;
    following.current = false;
    drag.current = { ...start, x: event.clientX, y: event.clientY };
    setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
  };
  const up = () => {
    drag.current = undefined;
  };

  /** Pans so that a node is inside the view, when it is not. */
  const reveal = (placed: PlacedNode) => {
    const { w, h } = size();
    const v = viewRef.current;
    const sx = placed.x * v.k + v.x;
    const sy = placed.y * v.k + v.y;
    const halfW = (NODE_WIDTH / 2) * v.k;
    const halfH = (NODE_HEIGHT / 2) * v.k;
    if (sx - halfW >= 0 && sx + halfW <= w && sy - halfH >= 0 && sy + halfH <= h) return;
    following.current = false;
    setView({ ...v, x: w / 2 - placed.x * v.k, y: h / 2 - placed.y * v.k });
  };

  return { view, fit, zoomAt, reveal, pointer: { down, move, up } };
}
