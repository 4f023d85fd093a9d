// Cockpit's configuration in this application (it replaces the webjar's empty one): our plugins, plain ES modules
// served from this jar (orchestrator/*.js beside this folder), loaded through Cockpit's customScripts.
export default {
  customScripts: ['orchestrator/plugins']
};
