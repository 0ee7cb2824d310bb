/** The pages' only style sheet, inlined in each page and allowed by its hash in the CSP (html.ts). WCAG AA contrasts. */
export const PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:860px;margin:2rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
header.brand{max-width:860px;margin:2rem auto -1rem;padding:0 2rem}
header.brand img{display:block;max-width:100%;max-height:48px;width:auto;height:auto}
footer{max-width:860px;margin:0 auto 2rem;padding:0 2rem;color:#4a4a4a;font-size:.875rem}
h1{font-size:1.6rem;margin:0 0 1rem}
h2{font-size:1.2rem;margin:2rem 0 .75rem}
table{width:100%;border-collapse:collapse;margin:.5rem 0}
th,td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid #d9dce1;vertical-align:top}
th{font-weight:600;color:#333}
td.num,th.num{text-align:right;white-space:nowrap}
.parties{display:flex;gap:2rem;flex-wrap:wrap}
.parties section{flex:1 1 240px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
.totals{margin-left:auto;max-width:380px}
.totals .due td,.totals .due th{font-size:1.15rem;font-weight:700;border-top:2px solid #1a1a1a}
.status{display:inline-block;padding:.1rem .6rem;border-radius:999px;background:#e7eaf0;font-weight:600}
.status-paid{background:#d5f2df;color:#0b5b2a}
.status-error{background:#fbe0e0;color:#8a1111}
.notice{padding:.75rem 1rem;border-radius:6px;margin:1rem 0;background:#e8f0fe;color:#0f3d8a}
.notice.ok{background:#d5f2df;color:#0b5b2a}
.notice.error{background:#fbe0e0;color:#8a1111}
form{margin:1rem 0}
fieldset{border:1px solid #d9dce1;border-radius:6px;padding:1rem;margin:0 0 1rem}
legend{font-weight:600;padding:0 .25rem}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
label.inline{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
input[type=text],input[type=email],input[type=number],select{width:100%;max-width:420px;padding:.5rem;border:1px solid #6b6f76;border-radius:4px;font:inherit;background:#fff}
.help{color:#4a4a4a;font-size:.875rem;margin:.25rem 0}
button{font:inherit;font-weight:600;padding:.55rem 1.2rem;border:0;border-radius:4px;background:#1d4ed8;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}
button:focus,a:focus,input:focus,select:focus{outline:3px solid #f59e0b;outline-offset:2px}
a{color:#1d4ed8}
ul.plain{list-style:none;padding:0;margin:0}
ul.plain li{padding:.4rem 0;border-bottom:1px solid #d9dce1;display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
ul.plain li form{margin:0}
ul.plain li.block{display:block}
ul.plain li .row{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
ul.plain li form.change,ul.plain li form.change+.preview{margin:.75rem 0}
.preview{border:1px solid #1d4ed8;border-radius:6px;padding:.75rem 1rem}
h3{font-size:1.05rem;margin:0 0 .5rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
main{overflow-wrap:anywhere}
/* Phones (a 390 px screen and up): no horizontal scrolling; a table of lines becomes one stacked block per row. */
@media (max-width:600px){
main{margin:0;padding:1rem;border-radius:0;box-shadow:none}
footer{padding:1rem}
h1{font-size:1.35rem}
dl.facts{grid-template-columns:1fr}
dl.facts dd{margin:0 0 .5rem}
.totals{max-width:none}
table.lines thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
table.lines,table.lines tbody,table.lines tr,table.lines td{display:block;width:100%}
table.lines tr{border-bottom:1px solid #d9dce1;padding:.5rem 0}
table.lines td{border:0;padding:.15rem 0;text-align:left;white-space:normal}
table.lines td[data-label]{display:flex;justify-content:space-between;gap:1rem}
table.lines td[data-label]::before{content:attr(data-label);font-weight:600;color:#333}
button{width:100%}
ul.plain li .row{gap:.25rem 1rem}
}
.pre{white-space:pre-wrap}
`;
