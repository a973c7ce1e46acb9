import { render } from 'preact';
import '../common/styles.css';
import { ConsoleApp } from './app';

render(<ConsoleApp />, document.getElementById('root') as HTMLElement);
