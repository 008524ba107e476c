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
            return new PostgreSqlStore(context, dataSource);
        }
        catch
        {
            dataSource.Dispose();
            throw;
        }
    }
}
