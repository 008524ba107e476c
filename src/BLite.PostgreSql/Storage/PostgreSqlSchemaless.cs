using BLite.Bson;
using BLite.Core.Query;
using BLite.PostgreSql.Jsonb;
using BLite.PostgreSql.Query;
using BLite.Providers;
using BLite.Serialization;
using Npgsql;
using NpgsqlTypes;

namespace BLite.PostgreSql.Storage;

/// <summary>
/// A schemaless collection as a table <c>(id bytea PRIMARY KEY, doc jsonb NOT NULL)</c>: the id
/// column holds the <c>_id</c> through the embedded engine's order-preserving key encoding (so any
/// <c>_id</c> the engine accepts is accepted, and <c>ORDER BY id</c> is the engine's <c>_id</c>
/// order), the document the same tagged jsonb as a typed collection's. No path is known to be
/// single-valued, so filters treat every path as possibly reaching arrays, as embedded.
/// </summary>
internal sealed partial class PostgreSqlSchemaless : ISchemalessStore
{
    private readonly PostgreSqlStore _store;
    private readonly string _name;
    private readonly string _table;
    private readonly string _insertSql;
    private readonly string _updateSql;
    private readonly string _upsertSql;
    private readonly string _deleteSql;
    private readonly string _findSql;

    public PostgreSqlSchemaless(PostgreSqlStore store, string name)
    {
        _store = store;
        _name = name;
        _table = SqlNames.Quote(name);
        _insertSql = $"INSERT INTO {_table} (id, doc) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING";
        _updateSql = $"UPDATE {_table} SET doc = $2 WHERE id = $1";
        _upsertSql = $"INSERT INTO {_table} (id, doc) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc RETURNING xmax = 0";
        _deleteSql = $"DELETE FROM {_table} WHERE id = $1";
        _findSql = $"SELECT doc FROM {_table} WHERE id = $1";
    }

    private BsonFieldDictionary Fields => _store.Context.FieldDictionary;

    /// <summary>The table, and its catalog row, so <c>blite migrate</c> moves it back to a file too.</summary>
    public void EnsureSchema()
    {
        PostgreSqlErrors.RefusedLayout(_store.DataSource, IndexSql.LayoutGuard(_name, schemaless: true)
            + $"CREATE TABLE IF NOT EXISTS {_table} (id bytea PRIMARY KEY, doc jsonb NOT NULL);"
            + IndexSql.CatalogStatement(_name, IndexSql.EncodedKeyIdType, [], keepIndexes: true));
        LoadIndexes();
    }

    public bool Insert(byte[] key, BsonDocument document) => Execute(_insertSql, key, document) > 0;

    public bool Update(byte[] key, BsonDocument document) => Execute(_updateSql, key, document) > 0;

    public bool Upsert(byte[] key, BsonDocument document)
    {
        var jsonb = Jsonb(document);
        return _store.Run((Table: this, Key: key, Jsonb: jsonb, Document: document), static (c, t, s) =>
        {
            using var command = s.Table.Command(s.Table._upsertSql, c, t, s.Key, s.Jsonb);
            return UniqueWrites.Guarded(t, s.Table.AnyUnique, () => (bool)command.ExecuteScalar()!, e => s.Table.Refused(e, s.Document));
        });
    }

    public bool Delete(byte[] key) => Execute(_deleteSql, key, null) > 0;

    public BsonDocument? FindById(byte[] key) => _store.Run((Table: this, Key: key), static (c, t, s) =>
    {
        using var command = s.Table.Command(s.Table._findSql, c, t, s.Key, null);
        using var reader = command.ExecuteReader(System.Data.CommandBehavior.SingleRow);
        return reader.Read() ? s.Table.Read(reader.GetFieldValue<byte[]>(0)) : null;
    });

    public IEnumerable<BsonDocument> Find(DocumentQuery query)
    {
        var (sql, values) = Select(query, "doc");
        return SqlRows.Read(_store, sql, values, Read);
    }

    public long Count(DocumentQuery query)
    {
        var (sql, values) = SqlQueryBuilder.Count(_table, query, null, NoPathIsSingleValued, _indexedPaths);
        return SqlRows.Count(_store, sql, values);
    }

    public int DeleteMany(DocumentQuery query)
    {
        var (sql, values) = DeleteMatching(query);
        return _store.Run((Sql: sql, Values: values), static (c, t, s) =>
        {
            using var command = SqlRows.Command(c, t, s.Sql, s.Values);
            return command.ExecuteNonQuery();
        });
    }

    public string Explain(DocumentQuery query)
    {
        var (sql, values) = Select(query, "doc");
        return SqlRows.Explain(_store, sql, values);
    }

    public async Task<bool> InsertAsync(byte[] key, BsonDocument document, CancellationToken cancellationToken) =>
        await ExecuteAsync(_insertSql, key, document, cancellationToken).ConfigureAwait(false) > 0;

    public async Task<bool> UpdateAsync(byte[] key, BsonDocument document, CancellationToken cancellationToken) =>
        await ExecuteAsync(_updateSql, key, document, cancellationToken).ConfigureAwait(false) > 0;

    public Task<bool> UpsertAsync(byte[] key, BsonDocument document, CancellationToken cancellationToken)
    {
        var jsonb = Jsonb(document);
        return _store.RunAsync((Table: this, Key: key, Jsonb: jsonb, Document: document), static async (c, t, s, token) =>
        {
            await using var command = s.Table.Command(s.Table._upsertSql, c, t, s.Key, s.Jsonb);
            return await UniqueWrites.GuardedAsync(t, s.Table.AnyUnique, async () => (bool)(await command.ExecuteScalarAsync(token).ConfigureAwait(false))!,
                e => s.Table.Refused(e, s.Document), token).ConfigureAwait(false);
        }, cancellationToken);
    }

    public async Task<bool> DeleteAsync(byte[] key, CancellationToken cancellationToken) =>
        await ExecuteAsync(_deleteSql, key, null, cancellationToken).ConfigureAwait(false) > 0;

    public Task<BsonDocument?> FindByIdAsync(byte[] key, CancellationToken cancellationToken) =>
        _store.RunAsync((Table: this, Key: key), static async (c, t, s, token) =>
        {
            await using var command = s.Table.Command(s.Table._findSql, c, t, s.Key, null);
            await using var reader = await command.ExecuteReaderAsync(System.Data.CommandBehavior.SingleRow, token).ConfigureAwait(false);
            return await reader.ReadAsync(token).ConfigureAwait(false) ? s.Table.Read(await reader.GetFieldValueAsync<byte[]>(0, token).ConfigureAwait(false)) : null;
        }, cancellationToken);

    public IAsyncEnumerable<BsonDocument> FindAsync(DocumentQuery query, CancellationToken cancellationToken)
    {
        var (sql, values) = Select(query, "doc");
        return SqlRows.ReadAsync(_store, sql, values, Read, cancellationToken);
    }

    public Task<long> CountAsync(DocumentQuery query, CancellationToken cancellationToken)
    {
        var (sql, values) = SqlQueryBuilder.Count(_table, query, null, NoPathIsSingleValued, _indexedPaths);
        return SqlRows.CountAsync(_store, sql, values, cancellationToken);
    }

    public Task<int> DeleteManyAsync(DocumentQuery query, CancellationToken cancellationToken)
    {
        var (sql, values) = DeleteMatching(query);
        return _store.RunAsync((Sql: sql, Values: values), static async (c, t, s, token) =>
        {
            await using var command = SqlRows.Command(c, t, s.Sql, s.Values);
            return await command.ExecuteNonQueryAsync(token).ConfigureAwait(false);
        }, cancellationToken);
    }

    private static bool NoPathIsSingleValued(string path) => false;

    private (string Sql, List<NpgsqlParameter> Values) Select(DocumentQuery query, string columns) =>
        SqlQueryBuilder.Select(_table, query, null, NoPathIsSingleValued, columns, _indexedPaths);

    /// <summary>One statement, so the matches are found and removed in one snapshot, as embedded.</summary>
    private (string Sql, List<NpgsqlParameter> Values) DeleteMatching(DocumentQuery query)
    {
        var (select, values) = Select(query, "id");
        return ($"DELETE FROM {_table} WHERE id IN ({select})", values);
    }

    /// <summary>The document's jsonb, transcoded before any statement runs, so a document that cannot be stored changes nothing.</summary>
    private byte[] Jsonb(BsonDocument document) => JsonbText.Write(document.ToBytes(Fields), Fields);

    private BsonDocument Read(byte[] jsonb)
    {
        using var bson = DocumentBuffer.Rent();
        var writer = new BsonSpanWriter(bson);
        JsonbReader.ReadDocument(jsonb, ref writer, Fields);
        writer.Flush();
        return BsonDocument.FromBytes(bson.WrittenSpan, Fields);
    }

    /// <summary>A write of one document (<paramref name="document"/> null for a delete), transcoded before any statement runs.</summary>
    private int Execute(string sql, byte[] key, BsonDocument? document) =>
        _store.Run((Table: this, Sql: sql, Key: key, Jsonb: document is null ? null : Jsonb(document), Document: document), static (c, t, s) =>
        {
            using var command = s.Table.Command(s.Sql, c, t, s.Key, s.Jsonb);
            return UniqueWrites.Guarded(t, s.Table.AnyUnique, command.ExecuteNonQuery, e => s.Table.Refused(e, s.Document));
        });

    private Task<int> ExecuteAsync(string sql, byte[] key, BsonDocument? document, CancellationToken cancellationToken) =>
        _store.RunAsync((Table: this, Sql: sql, Key: key, Jsonb: document is null ? null : Jsonb(document), Document: document), static async (c, t, s, token) =>
        {
            await using var command = s.Table.Command(s.Sql, c, t, s.Key, s.Jsonb);
            return await UniqueWrites.GuardedAsync(t, s.Table.AnyUnique, () => command.ExecuteNonQueryAsync(token), e => s.Table.Refused(e, s.Document), token).ConfigureAwait(false);
        }, cancellationToken);

    private NpgsqlCommand Command(string sql, NpgsqlConnection connection, NpgsqlTransaction? transaction, byte[] key, byte[]? jsonb)
    {
        var command = new NpgsqlCommand(sql, connection, transaction);
        command.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Bytea, Value = key });
        if (jsonb is not null)
        {
            command.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Jsonb, Value = jsonb });
        }

        return command;
    }
}
