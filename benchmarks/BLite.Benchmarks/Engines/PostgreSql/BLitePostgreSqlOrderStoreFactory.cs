using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.PostgreSql;

namespace BLite.Benchmarks.Engines.PostgreSql;

/// <summary>
/// The same <see cref="BenchOrdersContext"/> and adapter the embedded comparison uses, opened with
/// <c>UsePostgreSql</c> in a schema of its own: the abstraction whose cost the raw Npgsql peer measures.
/// </summary>
public sealed class BLitePostgreSqlOrderStoreFactory(string server) : IOrderStoreFactory
{
    public const string EngineName = "BLite+PostgreSQL";

    public string Engine => EngineName;

    public IOrderStore Create(OrderStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var schema = PostgreSqlServer.NewSchema("blite");
        var contextOptions = new DocumentDbContextOptions().UsePostgreSql(PostgreSqlServer.CreateSchema(server, schema));
        var context = options.IndexStatus ? new IndexedBenchOrdersContext(contextOptions) : new BenchOrdersContext(contextOptions);
        return new BLiteOrderStore(EngineName, StoreDurability.Server, context, () => PostgreSqlServer.DropSchema(server, schema));
    }
}
