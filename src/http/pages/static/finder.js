// The spec filters panel: open beside the results on a wide screen; on a phone it stays
// collapsed below them (results first). Without JavaScript it is open only once a filter is used.
const finder = document.getElementById('finder');
if (finder && window.matchMedia('(min-width: 60rem)').matches) finder.open = true;
