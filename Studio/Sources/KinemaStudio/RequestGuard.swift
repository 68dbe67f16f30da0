import Hummingbird

/// The defences of a local server that any web page the user visits can reach, as local
/// development servers have them:
/// - against DNS rebinding, only a loopback `Host` is answered (`localhost`, `*.localhost`,
///   127.0.0.0/8, `[::1]`), or the host the studio was told to listen on; listening on every
///   interface (`0.0.0.0`, `::`) also admits any IP address, never a domain name an attacker owns;
/// - against cross-site requests, a POST whose `Origin` is not this studio's own (`null` included)
///   or whose `Sec-Fetch-Site` says another site sent it is refused;
/// - a POST must say `Content-Type: application/json`: a page may send `text/plain`, form and
///   multipart bodies to any site without asking, JSON only after a CORS check the studio never
///   passes.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    /// The address the studio listens on (`--host`).
    let host: String

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let refusal = Self.refusal(of: request, listeningOn: host) { return Studio.refusal(refusal) }
        return try await next(request, context)
    }

    static func refusal(of request: Request, listeningOn host: String) -> BakeRequest.Refusal? {
        guard let given = request.head.authority, !given.isEmpty else {
            return .init(status: 400, field: nil, message: "the request has no Host header.")
        }
        guard isAllowed(host: hostName(given), listeningOn: host) else {
            return .init(
                status: 403, field: nil,
                message:
                    "the Host '\(given)' is not this studio's: it answers localhost, a loopback address or its --host only."
            )
        }
        guard request.method == .post else { return nil }
        if let site = header("sec-fetch-site", of: request)?.lowercased(), site != "same-origin", site != "none" {
            return .init(
                status: 403, field: nil, message: "a request from another site (Sec-Fetch-Site: \(site)) is refused.")
        }
        if let origin = request.headers[.origin], origin.lowercased() != "http://" + given.lowercased() {
            return .init(
                status: 403, field: nil,
                message: "a request from another origin (\(origin)) is refused: the studio takes only its own page's.")
        }
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard type?.lowercased() == "application/json" else {
            return .init(
                status: 415, field: nil,
                message:
                    "the body must be sent as Content-Type: application/json (got \(type.map { "'\($0)'" } ?? "none"))."
            )
        }
        return nil
    }

    /// The value of the header named `name` (lowercase), if given.
    static func header(_ name: String, of request: Request) -> String? {
        request.headers.first { $0.name.canonicalName == name }?.value
    }

    /// `example.org:8080` → `example.org`, `[::1]:8080` → `::1`, lowercased.
    static func hostName(_ authority: String) -> String {
        let text = authority.lowercased()
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") {
            return String(text[text.index(after: text.startIndex)..<end])
        }
        return String(text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    static func isAllowed(host name: String, listeningOn listening: String) -> Bool {
        let listening = listening.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || name == listening { return true }
        if let octets = ipv4(name) { return octets[0] == 127 || ["0.0.0.0", "::"].contains(listening) }
        // Any other IP address when listening on every interface (a domain name never: that is
        // what a rebinding attack controls).
        return listening == "::" && name.contains(":") && name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    /// The four octets of a dotted IPv4 address, or nil.
    static func ipv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { part in
            part.count <= 3 && part.allSatisfy(\.isASCII)
                ? Int(part).flatMap { (0...255).contains($0) ? $0 : nil } : nil
        }
        return parts.count == 4 && octets.count == 4 ? octets : nil
    }
}
