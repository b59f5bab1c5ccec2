extension HTMLReport {
  /// The page's style sheet, inline: system fonts, no web font to fetch.
  static let style = """
    :root { color-scheme: light; --pass: #1e7e44; --fail: #b3261e; --muted: #5f6368; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.5 -apple-system, "Segoe UI", "DejaVu Sans", Arial, sans-serif;
      color: #202124; background: #f1f3f4; }
    header, main { max-width: 1080px; margin: 0 auto; padding: 0 20px; }
    header { padding-top: 24px; }
    h1 { font-size: 26px; margin: 0 0 4px; }
    .subtitle { color: var(--muted); margin: 0 0 12px; }
    .summary { font-size: 18px; margin: 8px 0 16px; }
    .count.passed { color: var(--pass); font-weight: 600; }
    .count.failed { color: var(--fail); font-weight: 600; }
    nav ol { columns: 2; column-gap: 48px; padding-left: 28px; margin: 0 0 16px;
      font-size: 14px; }
    nav li { break-inside: avoid; }
    .failures { margin: -8px 0 12px; }
    .failures a { color: var(--fail); }
    nav a { color: inherit; text-decoration: none; }
    nav a:hover { text-decoration: underline; }
    section.report-section { background: white; border-radius: 10px; margin: 0 0 20px;
      padding: 16px 20px 20px; box-shadow: 0 1px 3px rgba(0,0,0,.12);
      border-left: 6px solid #c4c7c5; }
    section.passed { border-left-color: var(--pass); }
    section.failed, section.unreadable { border-left-color: var(--fail); }
    section.explained { border-left-color: #1f4fd1; }
    h2 { font-size: 19px; margin: 0 0 2px; }
    h3 { font-size: 15px; margin: 12px 0 4px; }
    .badge { display: inline-block; font-size: 11px; font-weight: 700; letter-spacing: .04em;
      padding: 1px 7px; border-radius: 9px; color: white; background: #80868b;
      vertical-align: 2px; }
    .badge.passed { background: var(--pass); }
    .badge.failed, .badge.unreadable { background: var(--fail); }
    .badge.explained { background: #1f4fd1; }
    .file { color: var(--muted); font: 13px/1.4 ui-monospace, "DejaVu Sans Mono", monospace;
      margin: 0 0 8px; }
    .environment { font: 700 11px/1 -apple-system, "DejaVu Sans", sans-serif;
      text-transform: uppercase; background: #b9770e; color: white; padding: 2px 6px;
      border-radius: 8px; margin-left: 6px; }
    .notes { margin: 0 0 8px; }
    .error { color: var(--fail); font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
    .statuses { margin: 4px 0 8px; padding-left: 20px; color: #1f4fd1; }
    figure.timeline { margin: 8px 0; overflow-x: auto; }
    figure.timeline svg { display: block; max-width: 100%; height: auto;
      border: 1px solid #e3e6ea; border-radius: 6px; }
    table.checks { border-collapse: collapse; width: 100%; font-size: 13px; margin-top: 8px; }
    table.checks th { text-align: left; color: var(--muted); font-weight: 600;
      border-bottom: 2px solid #e3e6ea; padding: 4px 8px; }
    table.checks td { border-bottom: 1px solid #eceff1; padding: 4px 8px; vertical-align: top;
      font-family: ui-monospace, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
    table.checks td.check, table.checks td.at, table.checks td.key, table.checks td.result {
      white-space: nowrap; overflow-wrap: normal; }
    table.checks td.at { color: var(--muted); }
    table.checks td.result { text-align: right; }
    table.checks tr.failed td { background: #fdecea; }
    .same { color: var(--muted); font-family: -apple-system, "DejaVu Sans", sans-serif; }
    .diagnostics { background: #fff8e1; border-radius: 6px; padding: 4px 12px 8px;
      margin-top: 10px; }
    .diagnostics ul { margin: 0; padding-left: 20px;
      font: 13px/1.5 ui-monospace, "DejaVu Sans Mono", monospace; }
    details { margin-top: 10px; }
    pre { background: #f8f9fa; padding: 10px; border-radius: 6px; overflow-x: auto;
      font-size: 12px; }
    @media print { body { background: white; } section.report-section { box-shadow: none;
      break-inside: avoid; } }
    """
}
