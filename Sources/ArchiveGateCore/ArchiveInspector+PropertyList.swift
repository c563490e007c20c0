extension ArchiveInspector {
    /// The JSON of a property list that is not a keyed archive (verdict `plist`), under the
    /// policy's reader limits and output budget (`PropertyListJSON`). Front ends call it after the
    /// archive decode failed with `archive.not_a_keyed_archive`.
    public func convertPropertyList(_ bytes: ByteStorage, pretty: Bool = false) throws(ArchiveGateError) -> [UInt8] {
        let plist: PropertyList
        do {
            plist = try PropertyList.read(bytes, limits: policy.limits.propertyList)
        } catch {
            throw .propertyList(error)
        }
        do {
            let json = try PropertyListJSON.render(plist, limits: policy.limits)
            return pretty ? JSONPrettyPrinter.format(json) : json
        } catch {
            throw .archive(error)
        }
    }
}
