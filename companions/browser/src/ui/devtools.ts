// The DevTools page: it only adds the Hitscope panel. Capture does not depend on it (the service
// worker captures whether DevTools is open or not), so a panel opened late still shows the page load.
chrome.devtools.panels.create('Hitscope', 'icons/32.png', 'panel.html');
