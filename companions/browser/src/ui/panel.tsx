import { CaptureApp } from './CaptureApp.js';
import { mount } from './mount.js';

// The DevTools panel: the capture of the inspected tab (the same store, whether DevTools was open or not).
mount(<CaptureApp surface="devtools" fixedTab={chrome.devtools.inspectedWindow.tabId} />);
