import { CaptureApp } from './CaptureApp.js';
import { mount } from './mount.js';

// The side panel (Chrome, Edge), Firefox's sidebar, and the same page opened in a tab with ?tab=<id>.
mount(<CaptureApp surface={new URLSearchParams(location.search).has('tab') ? 'tab' : 'sidepanel'} />);
