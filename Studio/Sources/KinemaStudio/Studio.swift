import Foundation
import Hummingbird
import Kinema
import KinemaCLI

/// The studio's HTTP interface: the page (HTML, CSS and JavaScript, no build step and nothing
/// fetched from elsewhere), the JSON API under /api and its OpenAPI description. Every answer is
/// computed by the code `kinema` runs: an export is the bytes `kinema keyframes` prints.
public enum Studio {
    /// The router of every route, for a server (`StudioCommand`) or a test client; `host` is the
    /// address it listens on, whose name `RequestGuard` answers besides the loopback ones.
    public static func router(host: String = "127.0.0.1") -> Router<BasicRequestContext> {
        let router = Router()
        // A method a path does not take is a 405 first, whatever its headers.
        router.add(middleware: AllowedMethods())
        router.add(middleware: RequestGuard(host: host))
        router.get("/") { _, _ in text(Page.html, type: "text/html; charset=utf-8") }
        router.get("/studio.js") { _, _ in text(Page.script, type: "text/javascript; charset=utf-8") }
        router.get("/studio.css") { _, _ in text(Page.style, type: "text/css; charset=utf-8") }
        router.get("/playground.js") { _, _ in text(Page.playground, type: "text/javascript; charset=utf-8") }
        router.get("/kinema-spring.js") { _, _ in
            text(InProcessCommands.springModule, type: "text/javascript; charset=utf-8")
        }
        router.get("/openapi.json") { _, _ in text(OpenAPIDocument.json, type: "application/json") }
        router.get("/api/catalog") { _, _ in text(Catalog.json, type: "application/json") }
        router.post("/api/bake") { request, context in
            let body: ByteBuffer
            do {
                guard let collected = try await collect(request.body) else {
                    return refusal(
                        .init(
                            status: 408, field: nil,
                            message: "the body did not arrive within \(BakeRequest.Limit.bodySeconds) s."))
                }
                body = collected
            } catch {
                return refusal(
                    .init(
                        status: 413, field: nil,
                        message: "the body is larger than \(BakeRequest.Limit.bodyBytes) bytes."))
            }
            do {
                let request = try BakeRequest(json: Data(buffer: body))
                if let cached = answers[request.key] { return text(cached, type: "application/json") }
                let answer = try await bakes.run { try BakeAnswer(request) }
                answers.store(answer.json, for: request.key)
                return text(answer.json, type: "application/json")
            } catch let error as BakeRequest.Refusal {
                return refusal(error)
            } catch let error as InProcessCommands.Failure {
                return refusal(
                    .init(
                        status: error.isOverLimit ? 422 : 400, field: BakeRequest.field(in: error.description),
                        message: error.description))
            } catch {
                return refusal(.init(status: 400, field: nil, message: "\(error)"))
            }
        }
        return router
    }

    /// The 256 latest bakes (about 25 KB each).
    static let answers = AnswerCache(capacity: 256)
    /// Where bakes run: first come, first served, off the server's threads.
    static let bakes = BakeQueue()

    /// The body, or nil when it has not all arrived within `Limit.bodySeconds` (a client that
    /// sends it a byte at a time would hold a connection and a task for as long as it liked).
    static func collect(_ body: RequestBody) async throws -> ByteBuffer? {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: BakeRequest.Limit.bodyBytes) }
            group.addTask {
                try await Task.sleep(for: .seconds(BakeRequest.Limit.bodySeconds))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    static func text(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: type, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `{"error": MESSAGE, "field": FIELD}` with the refusal's status.
    static func refusal(_ refusal: BakeRequest.Refusal) -> Response {
        let field = refusal.field.map(JSONText.string) ?? "null"
        return text(
            "{\"error\": \(JSONText.string(refusal.message)), \"field\": \(field)}\n", type: "application/json",
            status: .init(code: refusal.status))
    }

    /// Each path's methods: another method on one of them is a 405 naming these (`Allow`).
    static let methods: [String: [HTTPRequest.Method]] = [
        "/": [.get], "/studio.js": [.get], "/studio.css": [.get], "/playground.js": [.get], "/kinema-spring.js": [.get],
        "/openapi.json": [.get],
        "/api/catalog": [.get], "/api/bake": [.post]
    ]

    /// A path the studio does not serve is a 404 naming those it does; a method a path does not
    /// take is a 405 naming those it takes.
    struct AllowedMethods<Context: RequestContext>: RouterMiddleware {
        func handle(
            _ request: Request, context: Context, next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            guard let allowed = Studio.methods[request.uri.path] else {
                let paths = Studio.methods.keys.sorted().joined(separator: ", ")
                return refusal(
                    .init(
                        status: 404, field: nil,
                        message: "the studio serves \(paths); not \(request.uri.path.prefix(200))."))
            }
            guard !allowed.contains(request.method) else { return try await next(request, context) }
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            var response = refusal(
                .init(
                    status: 405, field: nil,
                    message: "\(request.uri.path) takes \(names), not \(request.method.rawValue)."))
            response.headers[.allow] = names
            return response
        }
    }
}
