using BLite.Providers;
using Npgsql;

namespace BLite.PostgreSql.Storage;

internal sealed class PostgreSqlStoreProvider(string connectionString) : IDocumentStoreProvider
{
    // Enough for every statement shape of a typical model; Npgsql evicts the least used beyond it.
    private const int AutoPreparedStatements = 256;

    public IDocumentStore Open(DocumentDbContext context, bool readOnly)
    {
        var dataSource = CreateDataSource(connectionString);
        try
        {
            if (!readOnly)
            {
                SchemaCache.Apply(dataSource, SqlFunctions.Script);
            }

            return new PostgreSqlStore(context, dataSource, readOnly);
        }
        catch
        {
            dataSource.Dispose();
            throw;
        }
    }

    /// <summary>
    /// The pooled data source, tuned for the provider's hot path unless the connection string says
    /// otherwise. Every operation borrows a pooled connection, so statements are auto-prepared (they
    /// stay prepared on the pooled connections, sparing the server a parse and plan per call), and
    /// the per-return session reset is skipped: the provider never changes session state (its
    /// isolation level is set per transaction, its schema by the connection string).
    /// </summary>
    internal static NpgsqlDataSource CreateDataSource(string connectionString)
    {
        var builder = new NpgsqlDataSourceBuilder(connectionString);
        var settings = builder.ConnectionStringBuilder;
        var given = new System.Data.Common.DbConnectionStringBuilder { ConnectionString = connectionString }.Keys
            .Cast<string>().Select(key => key.Replace(" ", "", StringComparison.Ordinal)).ToHashSet(StringComparer.OrdinalIgnoreCase);
        if (!given.Contains("MaxAutoPrepare"))
        {
            settings.MaxAutoPrepare = AutoPreparedStatements;
            settings.AutoPrepareMinUsages = 2;
        }

        if (!given.Contains("NoResetOnClose"))
        {
            settings.NoResetOnClose = true;
        }

        return builder.Build();
    }
}
