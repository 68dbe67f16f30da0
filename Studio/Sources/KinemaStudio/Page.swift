/// The page: HTML, CSS and JavaScript served as they are (no build step, nothing fetched from
/// elsewhere), from Resources/ (embedded in the binary by SwiftPM): index.html, the script
/// studio.js, the retargeting playground's module playground.js, the style studio.css.
enum Page {
    static let html = String(decoding: PackageResources.index_html, as: UTF8.self)
    static let script = String(decoding: PackageResources.studio_js, as: UTF8.self)
    static let style = String(decoding: PackageResources.studio_css, as: UTF8.self)
    static let playground = String(decoding: PackageResources.playground_js, as: UTF8.self)
}
