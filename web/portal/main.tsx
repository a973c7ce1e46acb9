import { render } from 'preact';
import '../common/styles.css';
import './portal.css';
import { PortalApp } from './app';

render(<PortalApp />, document.getElementById('root') as HTMLElement);
