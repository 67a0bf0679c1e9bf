// Live filtering of a results table already on the page (progressive enhancement: the server
// rendered the table; without JavaScript this box is never shown).
for (const table of document.querySelectorAll('table[data-live-filter]')) {
  const label = document.createElement('label');
  label.textContent = 'Filter the rows shown';
  const input = document.createElement('input');
  input.type = 'search';
  input.id = `${table.id}-filter`;
  label.htmlFor = input.id;
  const out = document.createElement('p');
  out.setAttribute('role', 'status');
  out.className = 'muted';
  table.parentElement.before(label, input, out);
  const rows = [...table.tBodies[0].rows];
  input.addEventListener('input', () => {
    const want = input.value.trim().toLowerCase();
    let shown = 0;
    for (const r of rows) {
      const hit = want === '' || r.textContent.toLowerCase().includes(want);
      r.hidden = !hit;
      if (hit) shown += 1;
    }
    out.textContent = want === '' ? '' : `${shown} of ${rows.length} rows on this page match "${input.value.trim()}".`;
  });
}
