extension Page {
    static let style = #"""
        :root { --ink: #1d232b; --muted: #5d6673; --line: #d9dee5; --accent: #d2462d; --motion: #2456c9;
          --pinned: #8a8f98; --error: #2f9b63; font-family: system-ui, sans-serif; color: var(--ink); }
        body { margin: 0; background: #f7f8fa; }
        header { padding: 12px 24px; border-bottom: 1px solid var(--line); background: #fff; }
        header h1 { margin: 0; font-size: 20px; }
        header p { margin: 4px 0 0; color: var(--muted); font-size: 14px; }
        main { display: grid; grid-template-columns: 300px 1fr; gap: 16px; padding: 16px 24px; }
        #export { grid-column: 1 / 3; }
        section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; }
        label { display: block; margin: 8px 0; font-size: 14px; }
        select, input[type=text] { width: 100%; box-sizing: border-box; padding: 4px; }
        .slider { display: grid; grid-template-columns: 1fr; gap: 2px; margin: 10px 0; font-size: 14px; }
        .slider .inputs { display: grid; grid-template-columns: 1fr 90px; gap: 8px; align-items: center; }
        #tolerance-row { grid-template-columns: 1fr 90px; }
        #tolerance-row label { grid-column: 1 / 3; margin: 0; }
        input[type=number] { width: 90px; box-sizing: border-box; }
        .buttons { display: flex; gap: 8px; margin-top: 8px; flex-wrap: wrap; }
        button { padding: 6px 12px; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
        button[aria-selected=true] { background: var(--ink); color: #fff; }
        #error { color: var(--accent); min-height: 1.2em; font-size: 14px; }
        #plot { width: 100%; height: auto; background: #fff; }
        .legend { font-size: 13px; color: var(--muted); }
        .key { display: inline-block; width: 18px; height: 3px; margin: 0 4px 3px 10px; vertical-align: middle; }
        .key.motion { background: var(--motion); } .key.keyframed { background: var(--accent); }
        .key.error { background: var(--error); } .key.pinned { background: var(--pinned); }
        #readouts { display: grid; grid-template-columns: repeat(4, auto 1fr); gap: 4px 8px; font-size: 14px; }
        #readouts dt { color: var(--muted); } #readouts dd { margin: 0; font-variant-numeric: tabular-nums; }
        #stage { margin: 12px 0; }
        .track { position: relative; height: 28px; margin: 6px 0; border-bottom: 1px dashed var(--line); }
        .track span { position: absolute; left: 0; top: 4px; font-size: 12px; color: var(--muted); }
        .ball { position: absolute; left: 80px; top: 4px; width: 20px; height: 20px; border-radius: 50%;
          background: var(--accent); }
        .pg-track { position: relative; height: 32px; margin: 6px 0; border-bottom: 1px dashed var(--line); cursor: crosshair; }
        #pg-ball { left: 0; top: 6px; cursor: grab; touch-action: none; }
        #pg-plot { width: 100%; height: auto; }
        .pg-readouts { display: grid; grid-template-columns: auto 1fr auto 1fr; gap: 4px 8px; font-size: 14px; }
        .pg-readouts dt { color: var(--muted); } .pg-readouts dd { margin: 0; font-variant-numeric: tabular-nums; }
        #dialects { font-size: 13px; border-collapse: collapse; margin-top: 8px; }
        #dialects caption { text-align: left; color: var(--muted); }
        #dialects td { padding: 1px 12px 1px 0; font-variant-numeric: tabular-nums; }
        #tabs { display: flex; gap: 4px; flex-wrap: wrap; }
        #export-text { width: 100%; height: 220px; box-sizing: border-box; margin-top: 8px;
          font: 12px ui-monospace, monospace; }
        @media (max-width: 800px) { main { grid-template-columns: 1fr; } #export { grid-column: 1; } }

        """#
}
