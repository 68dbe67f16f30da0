import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the server could listen at an address, asked before it starts, so that a port in use
/// is one clear line ("port 8080 on 127.0.0.1 is in use") rather than the server's error.
enum PortProbe {
    /// Why listening on `host`:`port` would fail, or nil when it would not.
    static func problem(host: String, port: Int) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, "\(port)", &hints, &found)
        guard status == 0, let address = found else {
            return "'--host' \(host) is not an address of this machine (\(String(cString: gai_strerror(status))))."
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard descriptor >= 0 else { return "no socket for \(host): \(String(cString: strerror(errno)))." }
        defer { close(descriptor) }
        // As the server binds: SO_REUSEADDR, so a port left in TIME_WAIT by a stopped studio is free.
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
            let reason = errno
            if reason == EADDRINUSE {
                return "port \(port) on \(host) is in use (another kinema-studio?): stop that program or give '--port'."
            }
            return "cannot listen on \(host):\(port): \(String(cString: strerror(reason)))."
        }
        return nil
    }
}
