import { render } from 'preact';
import { App } from './app';
import { registryInfo } from './registry';
import { session } from './session';
import './styles.css';

// The base IRI (to tell this registry's links from foreign ones) and who is signed in, then the first render.
await Promise.allSettled([registryInfo(), session.start()]);
render(<App />, document.getElementById('app')!);
