/// <reference types="vite/client" />

/** The build id baked into the client bundle (see vite.config.ts); compared with /_app/builds/latest.json. */
declare const __BUILD_ID__: string;
