using BLite.Providers;
using Npgsql;

namespace BLite.PostgreSql.Storage;

internal sealed class PostgreSqlStoreProvider(string connectionString) : IDocumentStoreProvider
{
    public IDocumentStore Open(DocumentDbContext context, bool readOnly)
    {
        var dataSource = NpgsqlDataSource.Create(connectionString);
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
}
