import { render } from 'preact';
import { App } from './app';
import { registryInfo } from './registry';
import { session } from './session';
import './styles.css';

// Who is signed in and what the registry says about itself load while the first page's code does.
void registryInfo().catch(() => undefined);
void session.start();
render(<App />, document.getElementById('app')!);
