/** The report page's stylesheet: system fonts, no outside resources, light and dark. */
export const STYLES = `
:root {
  --bg: #f6f7f9; --card: #fff; --ink: #1d2330; --muted: #667085; --line: #e3e6ec;
  --good: #12805c; --good-bg: #e4f5ee; --bad: #c4320a; --bad-bg: #fdece7;
  --pre: #8a4b00; --pre-bg: #fdf0d5; --warn: #9a6700; --warn-bg: #fff4cc;
  --repair: #5b3cc4; --repair-bg: #efeafd; --code-bg: #f1f3f6;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111418; --card: #1a1e24; --ink: #e6e8eb; --muted: #9aa3ae; --line: #2b313a;
    --good: #4cc596; --good-bg: #12352a; --bad: #ff8a66; --bad-bg: #3d1d14;
    --pre: #f0b252; --pre-bg: #3a2a0e; --warn: #e8c15a; --warn-bg: #362c0c;
    --repair: #b49cff; --repair-bg: #2a2245; --code-bg: #222831;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.wrap { max-width: 1080px; margin: 0 auto; padding: 0 24px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; }
a { color: inherit; }
.muted { color: var(--muted); font-weight: normal; }

.top { background: var(--card); border-bottom: 1px solid var(--line); border-top: 6px solid var(--good); padding: 20px 0 24px; margin-bottom: 24px; }
.top.status-failed, .top.status-error { border-top-color: var(--bad); }
.top.status-pre-state, .top.status-interrupted { border-top-color: var(--pre); }
.brand { font-weight: 700; letter-spacing: .02em; color: var(--muted); font-size: 13px; text-transform: uppercase; }
.brand span { font-weight: 500; }
.verdict { font-size: 30px; margin: 6px 0 2px; display: flex; align-items: center; gap: 10px; }
.verdict-icon { display: inline-grid; place-items: center; width: 38px; height: 38px; border-radius: 50%; font-size: 22px; color: #fff; background: var(--good); }
.verdict[data-status="failed"] .verdict-icon, .verdict[data-status="error"] .verdict-icon { background: var(--bad); }
.verdict[data-status="pre-state"] .verdict-icon { background: var(--pre); }
.verdict-line { margin: 0 0 16px; color: var(--muted); font-size: 15px; }
.verdict-line a { color: var(--ink); font-weight: 600; }
.stats { display: flex; flex-wrap: wrap; gap: 10px; }
.stat { background: var(--bg); border: 1px solid var(--line); border-radius: 10px; padding: 8px 14px; min-width: 96px; }
.stat strong { display: block; font-size: 20px; }
.stat span { color: var(--muted); font-size: 12px; }
.stat.good strong { color: var(--good); } .stat.bad strong { color: var(--bad); }
.stat.pre strong { color: var(--pre); } .stat.warn strong { color: var(--warn); }
.stat.warn { background: var(--warn-bg); border-color: transparent; }

.callout { background: var(--repair-bg); border-radius: 12px; padding: 14px 18px; margin-bottom: 20px; }
.callout h2 { margin: 0 0 6px; font-size: 16px; color: var(--repair); }
.callout ul { margin: 0 0 8px; padding-left: 20px; }
.command { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; display: inline-block; }

.script { background: var(--card); border: 1px solid var(--line); border-radius: 14px; margin-bottom: 24px; overflow: hidden; }
.script-head { padding: 16px 20px 10px; border-bottom: 1px solid var(--line); }
.script-head h2 { margin: 0; font-size: 18px; display: flex; gap: 10px; align-items: center; }
.meta { margin: 4px 0 0; color: var(--muted); }
.script-warnings { margin: 10px 20px 0; color: var(--warn); }
.script-error { margin: 12px 20px; color: var(--bad); }
.badge { display: inline-block; border-radius: 999px; padding: 1px 10px; font-size: 12px; font-weight: 600; background: var(--good-bg); color: var(--good); }
.badge-failed, .badge-error { background: var(--bad-bg); color: var(--bad); }
.badge-pre-state, .badge-interrupted { background: var(--pre-bg); color: var(--pre); }
.badge-skipped { background: transparent; color: var(--muted); border: 1px solid var(--line); }
.profile { display: inline-block; border: 1px solid var(--line); border-radius: 6px; padding: 0 6px; font-size: 12px; margin-left: 2px; color: var(--muted); }

.timeline { list-style: none; margin: 0; padding: 6px 0; }
.step { border-left: 3px solid transparent; }
.step + .step { border-top: 1px solid var(--line); }
.step-failed { border-left-color: var(--bad); background: color-mix(in srgb, var(--bad-bg) 45%, transparent); }
.step.has-retries:not(.step-failed) { border-left-color: var(--warn); }
.step.has-repair:not(.step-failed) { border-left-color: var(--repair); }
.step-skipped { color: var(--muted); }
.step-interrupted { border-left-color: var(--pre); }
.step-interrupted .icon { color: var(--pre); }
.row { display: flex; align-items: center; gap: 8px; padding: 8px 18px; list-style: none; cursor: default; }
.row .icon { flex: 0 0 22px; } .num { flex: 0 0 44px; } .title { flex: 1 1 auto; min-width: 0; }
.dur { flex: 0 0 70px; } .bar { flex: 0 0 120px; }
summary.row { cursor: pointer; }
summary.row::-webkit-details-marker { display: none; }
.row .icon { font-weight: 700; text-align: center; }
.step-passed .icon { color: var(--good); } .step-failed .icon { color: var(--bad); }
.num { color: var(--muted); font-variant-numeric: tabular-nums; font-size: 12px; }
.title { font-weight: 500; overflow-wrap: anywhere; }
.dur { text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; font-size: 12px; }
.bar { position: relative; height: 6px; background: var(--bg); border-radius: 3px; }
.bar span { position: absolute; top: 0; height: 6px; border-radius: 3px; background: var(--good); min-width: 2px; }
.step-failed .bar span { background: var(--bad); } .step-skipped .bar span { background: transparent; }
.has-retries .bar span { background: var(--warn); }
.retry-chip, .repair-chip, .warn-chip, .console-chip, .dialog-chip, .reason { border-radius: 999px; padding: 0 8px; font-size: 12px; font-weight: 600; white-space: nowrap; }
.retry-chip { background: var(--warn-bg); color: var(--warn); }
.repair-chip { background: var(--repair-bg); color: var(--repair); }
.warn-chip { background: var(--warn-bg); color: var(--warn); font-weight: 500; }
.dialog-chip { background: var(--repair-bg); color: var(--repair); font-weight: 500; }
.console-chip, .reason { background: var(--bad-bg); color: var(--bad); }
.body { padding: 4px 18px 16px 92px; display: grid; gap: 12px; }
.failure-message { margin: 0; font-size: 14.5px; }
.cause { color: var(--muted); }
.ef { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; margin: 8px 0 0; }
.ef div { background: var(--code-bg); border-radius: 8px; padding: 8px 12px; }
.ef dt { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
.ef dd { margin: 0; }
.shot { margin: 0; }
.shot img { display: block; max-width: 100%; border: 1px solid var(--line); border-radius: 10px; box-shadow: 0 2px 10px rgba(0,0,0,.08); }
.shot-failed img { border: 2px solid var(--bad); }
.shot figcaption { color: var(--muted); font-size: 12px; margin-top: 6px; }
.list h4, .repair h4 { margin: 0 0 4px; font-size: 13px; }
.list ul, .list ol { margin: 0; padding-left: 20px; }
.list li { margin: 2px 0; }
.console pre { color: var(--bad); }
.score { display: inline-block; min-width: 38px; font-variant-numeric: tabular-nums; color: var(--muted); }
.url { color: var(--muted); overflow-wrap: anywhere; }
.diff { border-collapse: collapse; width: 100%; font-size: 13px; }
.diff th, .diff td { text-align: left; padding: 5px 10px; border-bottom: 1px solid var(--line); font-family: ui-monospace, Menlo, Consolas, monospace; }
.diff thead th { font-family: inherit; color: var(--muted); font-weight: 500; font-size: 12px; }
.diff td.del { background: var(--bad-bg); } .diff td.ins { background: var(--good-bg); }
.diff del { color: var(--bad); } .diff ins { color: var(--good); text-decoration: none; }
.note { margin: 0; }
.retry-note { background: var(--warn-bg); color: var(--warn); border-radius: 8px; padding: 6px 10px; }
.calllog summary { cursor: pointer; color: var(--muted); }
.calllog pre { background: var(--code-bg); border-radius: 8px; padding: 10px; margin-top: 6px; }
.empty { color: var(--muted); }
.foot { color: var(--muted); font-size: 12px; padding-bottom: 32px; }
@media (max-width: 760px) {
  .row .bar, .row .profile { display: none; }
  .body { padding-left: 18px; }
}
`;
