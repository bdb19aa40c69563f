/// <reference types="chrome" />
// The WebExtension APIs (`chrome.*`) for the extension's code; Firefox answers to the same namespace.
