// /docs: Swagger UI over this server's own /openapi.json (bundle served by the process, no CDN).
window.SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger', deepLinking: true, validatorUrl: null, tryItOutEnabled: false });

// Accessibility repairs of Swagger UI's markup, applied as it renders: a name for the server
// picker, and no link nested inside an operation's expand button (its text is kept).
const root = document.getElementById('swagger');
const repair = () => {
  const servers = root.querySelector('#servers');
  if (servers && !servers.hasAttribute('aria-label')) servers.setAttribute('aria-label', 'Server');
  for (const a of root.querySelectorAll('.opblock-summary-control a')) {
    const span = document.createElement('span');
    span.textContent = a.textContent;
    a.replaceWith(span);
  }
};
new MutationObserver(repair).observe(root, { childList: true, subtree: true });
