import ArchiveGateInflate
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Reads an upload under the tenant's limits — an archive, or typed JSON for `/v1/encode` (the same
/// reader, so every upload endpoint treats encodings, lengths and truncation alike):
///
///     Content-Type     octet-stream | x-plist | absent (RFC 9110 §8.3)   else 415
///                      (encode: application/json)
///     Content-Encoding gzip | identity | absent                          else 415
///     Content-Length   over the body limit → 413 before reading a byte
///     body             read chunk by chunk; past the body limit → 413 without buffering the rest
///     gzip             inflated as it arrives; past the archive limit → 413, bad stream → 400
///     connection lost  mid-body (client gone, body timeout) → 400 request.invalid, never a 500
///     memory           what is buffered (plain body, inflated archive) is reserved from `lease` as
///                      it grows: past the budget → 503 server.busy / 429 tenant.busy mid-body
enum ArchiveBody {
    static let acceptedMediaTypes: Set<String> = ["application/octet-stream", "application/x-plist"]

    /// An archive upload: at most the tenant's `maxArchiveBytes` once inflated.
    static func read(_ request: Request, tenant: Tenant, lease: MemoryLease) async throws -> [UInt8] {
        try await read(request, mediaTypes: acceptedMediaTypes, named: "application/octet-stream or application/x-plist",
                       contentLimit: tenant.maxArchiveBytes, tenant: tenant, lease: lease)
    }

    /// An upload of `mediaTypes` whose content (inflated, when gzip) is at most `contentLimit` bytes.
    static func read(_ request: Request, mediaTypes: Set<String>, named: String, contentLimit: Int,
                     tenant: Tenant, lease: MemoryLease) async throws -> [UInt8] {
        try ArchiveRequestContext.requireMediaType(request, in: mediaTypes, named: named)
        let gzip: Bool
        switch request.headers[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "", "identity": gzip = false
        case "gzip", "x-gzip": gzip = true
        case let other?: throw ProblemError.unsupportedEncoding(other)
        }
        // Uncompressed, the body is the archive: the smaller limit applies to both.
        let bodyLimit = gzip ? tenant.maxBodyBytes : min(tenant.maxBodyBytes, contentLimit)
        let declaredLength = request.headers[.contentLength].flatMap { Int($0) }
        if let declaredLength, declaredLength > bodyLimit {
            throw ProblemError.bodyTooLarge(limit: bodyLimit)
        }
        var received = 0
        var plain: [UInt8] = []
        // One contiguous buffer, allocated once at the declared size (≤ the limit): chunks are
        // appended into it, never regrown and copied. Pages are only touched (and reserved from
        // the lease) as bytes arrive.
        if !gzip, let declaredLength, declaredLength > 0 { plain.reserveCapacity(declaredLength) }
        var refusal: ProblemError?
        do {
            var inflater = gzip ? try GzipInflater(limit: contentLimit) : nil
            for try await chunk in request.body {
                received += chunk.readableBytes
                guard received <= bodyLimit else { throw ProblemError.bodyTooLarge(limit: bodyLimit) }
                if inflater != nil {
                    // Reserved as the output grows: 60 KB of gzip can inflate to 60 MiB in one
                    // chunk. Each growth reserves the new buffer before the old one is returned.
                    try inflater!.feed(chunk, admitting: { bytes in
                        do throws(ProblemError) { try lease.reserve(bytes) } catch { refusal = error; return false }
                        return true
                    }, released: { bytes in lease.shrink(by: bytes) })
                } else {
                    try lease.reserve(chunk.readableBytes)
                    plain.append(contentsOf: chunk.readableBytesView)
                }
            }
            return try inflater?.finish() ?? plain
        } catch let problem as ProblemError {
            throw problem
        } catch let error as InflateError {
            if error.code == .growthRefused, let refusal { throw refusal }
            throw error.problemError
        } catch {
            // The connection closed mid-body: the client went away or the body timeout cut it.
            // A client problem, logged and counted as one, not as a server failure.
            throw ProblemError.invalidRequest("The request body ended after \(received) bytes, before it was complete.")
        }
    }
}
