import Foundation

/// HTTP/1.1 over a plain socket, for requests URLSession will not send as written (a foreign or
/// missing Host, no Content-Type) and for clients that hold a connection open.
enum RawHTTP {
    struct Failure: Error {}

    /// A connected socket to 127.0.0.1:`port`, with a 10 s receive timeout.
    static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure()
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    static func send(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What arrives until the peer closes (or 10 s pass without a byte).
    static func receive(from descriptor: Int32) -> String {
        var data = [UInt8](), buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            data += buffer[..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Sends `request` and returns the whole answer.
    static func exchange(_ request: String, port: Int) throws -> String {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        send(request, to: descriptor)
        return receive(from: descriptor)
    }
}
