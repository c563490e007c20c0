import HTTPTypes
import Hummingbird

/// Outermost layer: gives every request an id and every response an `X-Request-Id`.
///
/// A client's id is kept when it is sane (1–128 of `A-Z a-z 0-9 . _ : -`), so ids can be followed
/// across services; anything else is replaced, so logs never carry attacker-shaped text.
struct RequestIdMiddleware: RouterMiddleware {
    typealias Context = ArchiveRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.requestId = request.headers[.xRequestId].flatMap(Self.sanitized) ?? Self.generate()
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // ProblemMiddleware sits inside and renders every error; this is the safety net that
            // still stamps the id should anything slip through.
            response = ProblemMiddleware.problemError(for: error, logger: context.logger).response(requestId: context.requestId)
        }
        response.headers[.xRequestId] = context.requestId
        return response
    }

    static func sanitized(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count) else { return nil }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"):
                continue
            default:
                return nil
            }
        }
        return value
    }

    /// 128 random bits as 32 lower-case hex digits, written straight into the string.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let high: UInt64 = generator.next(), low: UInt64 = generator.next()
        return String(unsafeUninitializedCapacity: 32) { text in
            hexDigits.withUTF8Buffer { digits in
                for index in 0..<32 {
                    let bits = index < 16 ? high : low
                    text[index] = digits[Int(truncatingIfNeeded: bits >> (60 - 4 * (index % 16))) & 0x0F]
                }
            }
            return 32
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"
}

extension HTTPField.Name {
    static let xRequestId = HTTPField.Name("X-Request-Id")!
}
