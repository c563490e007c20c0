/// `Resources/openapi.yaml`, embedded at build time (SwiftPM `embedInCode`), so the binary serves
/// it without locating a resource bundle at run time.
enum OpenAPIDocument {
    static let yaml = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
}
