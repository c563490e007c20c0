import ArchiveGateInflate
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Reads an archive upload under the tenant's limits:
///
///     Content-Type     octet-stream | x-plist | absent (RFC 9110 §8.3)   else 415
///     Content-Encoding gzip | identity | absent                          else 415
///     Content-Length   over the body limit → 413 before reading a byte
///     body             read chunk by chunk; past the body limit → 413 without buffering the rest
///     gzip             inflated as it arrives; past the archive limit → 413, bad stream → 400
///     connection lost  mid-body (client gone, body timeout) → 400 request.invalid, never a 500
enum ArchiveBody {
    static let acceptedMediaTypes: Set<String> = ["application/octet-stream", "application/x-plist"]

    static func read(_ request: Request, tenant: Tenant) async throws -> [UInt8] {
        if let contentType = request.headers[.contentType] {
            let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
            guard acceptedMediaTypes.contains(mediaType) else { throw ProblemError.unsupportedMediaType(contentType) }
        }
        let gzip: Bool
        switch request.headers[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "", "identity": gzip = false
        case "gzip", "x-gzip": gzip = true
        case let other?: throw ProblemError.unsupportedEncoding(other)
        }
        // Uncompressed, the body is the archive: the smaller limit applies to both.
        let bodyLimit = gzip ? tenant.maxBodyBytes : min(tenant.maxBodyBytes, tenant.maxArchiveBytes)
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > bodyLimit {
            throw ProblemError.bodyTooLarge(limit: bodyLimit)
        }
        var received = 0
        var plain: [UInt8] = []
        do {
            var inflater = gzip ? try GzipInflater(limit: tenant.maxArchiveBytes) : nil
            for try await chunk in request.body {
                received += chunk.readableBytes
                guard received <= bodyLimit else { throw ProblemError.bodyTooLarge(limit: bodyLimit) }
                if inflater != nil {
                    try inflater!.feed(chunk)
                } else {
                    plain.append(contentsOf: chunk.readableBytesView)
                }
            }
            return try inflater?.finish() ?? plain
        } catch let problem as ProblemError {
            throw problem
        } catch let error as InflateError {
            throw error.problemError
        } catch {
            // The connection closed mid-body: the client went away or the body timeout cut it.
            // A client problem, logged and counted as one, not as a server failure.
            throw ProblemError.invalidRequest("The request body ended after \(received) bytes, before it was complete.")
        }
    }
}
