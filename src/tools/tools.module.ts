import { Ga4mpModule } from './ga4mp/ga4mp.module.js';
import { LinkerModule } from './linker/linker.module.js';
import { ToolUsageModule } from './usage/tool-usage.module.js';

/**
 * The dashboard tools' server side (the HAR and app-log analysers run in the browser only). They are
 * imported by AppModule directly, not through an umbrella module: Nest registers the routes of
 * modules nested one level deeper after the page catch-all, which would then shadow their GETs.
 */
export const TOOL_MODULES = [ToolUsageModule, Ga4mpModule, LinkerModule];
