// /docs: Swagger UI over this server's own /openapi.json (bundle served by the process, no CDN).
window.SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger', deepLinking: true, validatorUrl: null, tryItOutEnabled: false });
