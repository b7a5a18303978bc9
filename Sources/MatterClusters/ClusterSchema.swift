/// Placeholder until cluster schemas land.
enum ClusterSchemaPlaceholder {}
