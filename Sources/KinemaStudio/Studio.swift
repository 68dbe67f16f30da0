import Foundation
import Hummingbird
import Kinema
import KinemaCLI

/// The studio's HTTP interface: the page (HTML, CSS and JavaScript, no build step and nothing
/// fetched from elsewhere), the JSON API under /api and its OpenAPI description. Every answer is
/// computed by the code `kinema` runs: an export is the bytes `kinema keyframes` prints.
public enum Studio {
    /// The router of every route, for a server (`StudioCommand`) or a test client.
    public static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in text(Page.html, type: "text/html; charset=utf-8") }
        router.get("/studio.js") { _, _ in text(Page.script, type: "text/javascript; charset=utf-8") }
        router.get("/studio.css") { _, _ in text(Page.style, type: "text/css; charset=utf-8") }
        router.get("/openapi.json") { _, _ in text(OpenAPIDocument.json, type: "application/json") }
        router.get("/api/catalog") { _, _ in text(Catalog.json, type: "application/json") }
        router.post("/api/bake") { request, context in
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: BakeRequest.Limit.bodyBytes)
            } catch {
                return refusal(
                    .init(
                        status: 413, field: nil,
                        message: "the body is larger than \(BakeRequest.Limit.bodyBytes) bytes."))
            }
            do {
                let answer = try BakeAnswer(BakeRequest(json: Data(buffer: body)))
                return text(answer.json, type: "application/json")
            } catch let error as BakeRequest.Refusal {
                return refusal(error)
            } catch let error as InProcessCommands.Failure {
                return refusal(
                    .init(status: 400, field: BakeRequest.field(in: error.description), message: error.description))
            } catch {
                return refusal(.init(status: 400, field: nil, message: "\(error)"))
            }
        }
        return router
    }

    static func text(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: type, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `{"error": MESSAGE, "field": FIELD}` with the refusal's status.
    static func refusal(_ refusal: BakeRequest.Refusal) -> Response {
        let field = refusal.field.map { "\"\(JSONText.escape($0))\"" } ?? "null"
        return text(
            "{\"error\": \"\(JSONText.escape(refusal.message))\", \"field\": \(field)}\n", type: "application/json",
            status: .init(code: refusal.status))
    }
}
