/// Placeholder until the device data model lands.
enum DataModelPlaceholder {}
