/// The page: HTML, CSS and JavaScript written here and served as they are (no build step, nothing
/// fetched from elsewhere); the script is in Page+Script.swift, the retargeting playground's in
/// Page+Playground.swift, the style in Page+Style.swift.
enum Page {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Kinema Studio</title>
        <link rel="stylesheet" href="/studio.css">
        <style id="exported"></style>
        </head>
        <body>
        <header>
          <h1>Kinema Studio</h1>
          <p>Tune a motion, see its keyframes and how far they are from it, play it through its own CSS, export it.</p>
        </header>
        <main>
          <section id="controls" aria-label="Motion">
            <label>Motion
              <select id="source">
                <option value="spring">Spring</option>
                <option value="easing">Easing</option>
                <option value="drop">Drop (a bouncing ball)</option>
              </select>
            </label>
            <div id="spring-controls">
              <label>Dialect <select id="dialect"></select></label>
            </div>
            <div id="easing-controls">
              <label>Easing <select id="easing"></select></label>
              <label>or with parameters <input id="easing-text" type="text" placeholder="damped-cosine(5,30)"></label>
            </div>
            <div id="parameters"></div>
            <div class="slider" id="tolerance-row">
              <label for="tolerance">Tolerance</label>
              <input id="tolerance" type="range" min="-5" max="-1" step="0.1" value="-3">
              <input id="tolerance-number" type="number" step="any" value="0.001">
            </div>
            <div class="buttons">
              <button id="compare" type="button">Compare: pin this motion</button>
              <button id="clear-compare" type="button" hidden>Clear the pinned motion</button>
            </div>
            <p id="error" role="alert"></p>
          </section>
          <section id="view" aria-label="Curve">
            <svg id="plot" viewBox="0 0 640 360" role="img" aria-label="The motion, its keyframes and their error"></svg>
            <p class="legend"><span class="key motion"></span>motion <span class="key keyframed"></span>keyframes
              <span class="key error"></span>error (scaled) <span class="key pinned"></span>pinned</p>
            <dl id="readouts">
              <dt>Keyframes</dt><dd id="keyframes">–</dd>
              <dt>Max error</dt><dd id="max-error">–</dd>
              <dt>Settling time</dt><dd id="settling">–</dd>
              <dt>Duration</dt><dd id="duration-readout">–</dd>
            </dl>
            <div id="stage" aria-label="The motion played by its exported CSS">
              <div class="track"><span>@keyframes</span><div id="ball" class="ball"></div></div>
              <div class="track"><span>linear()</span><div id="ball-linear" class="ball"></div></div>
              <button id="play" type="button">Play</button>
            </div>
            <div id="playground" hidden aria-label="The spring retargeted mid-flight">
              <p class="legend">Retargetable: click the track to send the ball there mid-flight, drag it and let go to
                throw it (kinema-spring.js playing the spring's retargetable export).
                <span class="key keyframed"></span>played <span class="key motion"></span>closed form</p>
              <div id="pg-track" class="pg-track"><div id="pg-ball" class="ball"></div></div>
              <svg id="pg-plot" viewBox="0 0 640 120" role="img" aria-label="The played motion against the closed form"></svg>
              <dl class="pg-readouts"><dt>Animations</dt><dd id="pg-count">0</dd>
                <dt>Played against the closed form</dt><dd id="pg-error">–</dd></dl>
            </div>
            <table id="dialects" hidden><caption>The spring in every dialect</caption><tbody></tbody></table>
          </section>
          <section id="export" aria-label="Export">
            <div role="tablist" id="tabs"></div>
            <textarea id="export-text" readonly spellcheck="false"></textarea>
            <div class="buttons">
              <button id="copy" type="button">Copy</button>
              <button id="download" type="button">Download</button>
            </div>
          </section>
        </main>
        <script src="/studio.js"></script>
        <script type="module" src="/playground.js"></script>
        </body>
        </html>

        """#
}
