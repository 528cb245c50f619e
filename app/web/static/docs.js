// The API reference at /docs: Swagger UI (served from this server) drawing /openapi.json.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true});
});
