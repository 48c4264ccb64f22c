// Cline's three task files (docs/sources.md#fmt-cline): the API history the model was sent, the UI's message
// log, and the task metadata (files in context). Each is a dialect of its own; they are one family
// because the history and the metadata defer to a UI log dropped with them.
export { CLINE_DIALECT } from './api-history';
export { CLINE_TASK_METADATA_DIALECT } from './task-metadata';
export { CLINE_UI_DIALECT } from './ui-messages';
