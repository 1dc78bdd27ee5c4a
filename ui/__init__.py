"""The app's user interface, in three floors (each imports only the floors below it):

- ``ui.framework``: the frame the router runs, the session's shared state, navigation, i18n,
  the app's error messages, styles, the palette, share links and addresses, memory;
- ``ui.components``: widgets and their pure editing logic, charts, predict-first questions and
  their prompts, the handout;
- ``ui.views``: one module per page, which the page script in ``pages/`` calls.

Importing ``ui`` (or a pure module such as ``ui.framework.text``) imports nothing else.
"""
