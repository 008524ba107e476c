using BLite.Providers;
using Npgsql;

namespace BLite.PostgreSql.Storage;

internal sealed class PostgreSqlStoreProvider(string connectionString) : IDocumentStoreProvider
{
    public IDocumentStore Open(DocumentDbContext context)
    {
        var dataSource = NpgsqlDataSource.Create(connectionString);
        try
        {
            SchemaCache.Apply(dataSource, SqlFunctions.Script);
            return new PostgreSqlStore(context, dataSource);
        }
        catch
        {
            dataSource.Dispose();
            throw;
        }
    }
}
