using System.Text.Json.Serialization;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Engines.Sqlite;

/// <summary>
/// Compile-time JSON metadata and fast-path serializer for the workload, as a System.Text.Json
/// expert would use (no reflection at run time). Property names stay PascalCase so the SQL side
/// reads <c>$.Status</c>.
/// </summary>
[JsonSourceGenerationOptions(GenerationMode = JsonSourceGenerationMode.Default)]
[JsonSerializable(typeof(CustomerOrder))]
public sealed partial class SqliteOrderJsonContext : JsonSerializerContext
{
}
