// "Add to BOM" kept in the browser (localStorage): the buttons of result rows and part pages add
// an item; /bom fills its text box from the list and keeps the list in step with what is checked.
// Without JavaScript the same buttons post to /bom, which keeps the list in a cookie.
const KEY = 'robot-parts-mcp.bom';
const load = () => {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((i) => i && typeof i.id === 'string' && Number.isInteger(i.quantity) && i.quantity > 0) : [];
  } catch {
    return [];
  }
};
const save = (items) => localStorage.setItem(KEY, JSON.stringify(items));

for (const form of document.querySelectorAll('form.add-bom')) {
  const status = document.createElement('span');
  status.setAttribute('role', 'status');
  status.className = 'muted added';
  form.append(status);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const id = form.elements.add.value;
    const items = load();
    const it = items.find((i) => i.id === id);
    if (it) it.quantity += 1;
    else items.push({ id, quantity: 1 });
    save(items);
    status.textContent = ` ${id} × ${it ? it.quantity : 1} in the BOM`;
  });
}

const lines = document.querySelector('textarea[data-cart]');
if (lines) {
  const items = load();
  if (items.length && lines.value.trim() === '') {
    lines.value = items.map((i) => `${i.id} ${i.quantity}`).join('\n');
    const cart = document.getElementById('cart');
    if (cart) {
      const p = document.createElement('p');
      p.id = 'cart-kept';
      p.textContent = `${items.length} part(s) added while browsing are in the box below.`;
      cart.replaceChildren(p);
    }
  }
  // What is checked or exported becomes the list kept in the browser.
  lines.form?.addEventListener('submit', () => {
    const next = [];
    for (const raw of lines.value.split(/\r?\n/)) {
      const m = /^(\S+?)[\s,;]*(?:[x×*]\s*)?(\d+)?$/i.exec(raw.trim());
      if (m && m[1]) next.push({ id: m[1], quantity: m[2] ? parseInt(m[2], 10) : 1 });
    }
    save(next);
  });
}
