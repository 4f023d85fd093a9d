// Cockpit's configuration in this application (it replaces the webjar's empty one): our plugins, plain ES modules
// served from this jar (orchestrator/*.js beside this folder), loaded through Cockpit's customScripts.

// Cockpit loads its own plugin bundle through RequireJS with RequireJS's default 7-second timeout (index.html's
// waitSeconds: 0 comes after the bootstrap has configured RequireJS): on a busy host the bundle takes longer and
// Cockpit stays blank ("Load timeout for modules: cockpit-plugin-cockpitPlugins"). This file is read before that.
if (window.require && typeof window.require.config === 'function') {
  window.require.config({waitSeconds: 0});
}

export default {
  customScripts: ['orchestrator/plugins']
};
