using BLite.Bson;
using BLite.Bson.Jsonb;
using BLite.Linq;
using BLite.PostgreSql.Jsonb;
using BLite.Providers;
using BLite.Serialization;
using Npgsql;
using NpgsqlTypes;

namespace BLite.PostgreSql.Storage;

/// <summary>
/// One collection as a table <c>(id &lt;typed key&gt; PRIMARY KEY, doc jsonb NOT NULL)</c>. Every
/// operation joins the flow's <see cref="DocumentTransaction"/> (its connection and PostgreSQL
/// transaction) or runs alone on a pooled connection, committing before it returns.
/// </summary>
internal sealed partial class PostgreSqlCollection<TId, T> : ICollectionStore<TId, T>
    where T : class
{
    private readonly PostgreSqlStore _store;
    private readonly DocumentCollection<TId, T> _collection;
    private readonly IdPolicy<TId> _ids;
    private readonly IJsonbDocumentMapper<T>? _jsonb;
    private readonly string _table;
    private readonly string _sequence;
    private readonly string _insertSql;
    private readonly ReusableCommand _insert;
    private readonly string _insertPlainSql;
    private readonly string _updateSql;
    private readonly string _upsertSql;
    private readonly string _deleteSql;
    private readonly string _findSql;
    private readonly string _existsSql;
    private readonly string _countSql;
    private readonly string _nextIdSql;

    public PostgreSqlCollection(PostgreSqlStore store, DocumentCollection<TId, T> collection)
    {
        _store = store;
        _collection = collection;
        _ids = collection.Ids;
        _jsonb = collection.Mapper as IJsonbDocumentMapper<T>;
        _table = SqlNames.Quote(collection.Name);
        _sequence = SqlNames.Quote(collection.Name + "_id_seq");
        _insertSql = $"INSERT INTO {_table} (id, doc) VALUES ($1, $2) ON CONFLICT DO NOTHING";
        _insert = new ReusableCommand(_insertSql, null, NpgsqlDbType.Jsonb);
        _insertPlainSql = $"INSERT INTO {_table} (id, doc) VALUES ($1, $2)";
        _updateSql = $"UPDATE {_table} SET doc = $2 WHERE id = $1";
        _upsertSql = $"INSERT INTO {_table} (id, doc) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc RETURNING xmax = 0";
        _deleteSql = $"DELETE FROM {_table} WHERE id = $1";
        _findSql = $"SELECT doc FROM {_table} WHERE id = $1";
        _existsSql = $"SELECT EXISTS (SELECT 1 FROM {_table} WHERE id = $1)";
        _countSql = $"SELECT count(*) FROM {_table}";
        _nextIdSql = $"SELECT nextval('{_sequence.Replace("'", "''", StringComparison.Ordinal)}')";
        QuerySource = new Query.PostgreSqlQuerySource<TId, T>(this);
    }

    public IDocumentQuerySource<T> QuerySource { get; }

    internal DocumentCollection<TId, T> Collection => _collection;

    internal string Table => _table;

    internal PostgreSqlStore Store => _store;

    /// <summary>Creates the table, its id sequence and the declared indexes that are missing; existing data is kept.</summary>
    public void EnsureSchema()
    {
        var sql = IndexSql.TableStatement(_collection.Name, _ids.KeyType);
        if (_ids.UsesSequence)
        {
            sql += $"CREATE SEQUENCE IF NOT EXISTS {_sequence};";
        }

        PostgreSqlErrors.RefusedLayout(_store.DataSource, IndexSql.LayoutGuard(_collection.Name, schemaless: false) + sql + IndexStatements());
    }

    internal TResult Run<TState, TResult>(TState state, Func<NpgsqlConnection, NpgsqlTransaction?, TState, TResult> operation) =>
        _store.Run(state, operation);

    internal Task<TResult> RunAsync<TState, TResult>(TState state, Func<NpgsqlConnection, NpgsqlTransaction?, TState, CancellationToken, Task<TResult>> operation, CancellationToken cancellationToken) =>
        _store.RunAsync(state, operation, cancellationToken);

    internal NpgsqlParameter IdParameter(TId id) => new() { Value = IdValue(id) };

    private object IdValue(TId id) => SqlNames.IdValue(_ids.ToKey(id));

    /// <summary>
    /// The document as BLite jsonb: written straight from the object by a generated mapper; a
    /// hand-written mapper's C-BSON is transcoded in one walk.
    /// </summary>
    internal NpgsqlParameter DocumentParameter(T document) => new() { NpgsqlDbType = NpgsqlDbType.Jsonb, Value = DocumentJsonb(document) };

    private byte[] DocumentJsonb(T document)
    {
        if (_jsonb is not null)
        {
            return JsonbText.Write(_jsonb, document);
        }

        using var bson = SerializeBson(document);
        return JsonbText.Write(bson.WrittenSpan, _store.Context.FieldDictionary);
    }

    /// <summary>The document as the mapper writes it, for messages that name its values.</summary>
    private BsonDocument ToBsonDocument(T document)
    {
        using var bson = SerializeBson(document);
        return BsonDocument.FromBytes(bson.WrittenSpan, _store.Context.FieldDictionary);
    }

    /// <summary>The mapper's C-BSON of <paramref name="document"/> in a rented buffer the caller disposes.</summary>
    private DocumentBuffer SerializeBson(T document)
    {
        var bson = DocumentBuffer.Rent();
        try
        {
            var writer = new BsonSpanWriter(bson);
            _collection.Mapper.Serialize(document, ref writer);
            writer.Flush();
            return bson;
        }
        catch
        {
            bson.Dispose();
            throw;
        }
    }

    internal T Deserialize(byte[] jsonb)
    {
        if (_jsonb is not null)
        {
            return _jsonb.ReadJsonb(jsonb);
        }

        using var bson = DocumentBuffer.Rent();
        var writer = new BsonSpanWriter(bson);
        JsonbReader.ReadDocument(jsonb, ref writer, _store.Context.FieldDictionary);
        writer.Flush();
        var reader = new BsonSpanReader(bson.WrittenSpan);
        return _collection.Mapper.Deserialize(ref reader);
    }

    private NpgsqlCommand Command(string sql, NpgsqlConnection connection, NpgsqlTransaction? transaction, NpgsqlParameter first, NpgsqlParameter? second = null)
    {
        var command = new NpgsqlCommand(sql, connection, transaction);
        command.Parameters.Add(first);
        if (second is not null)
        {
            command.Parameters.Add(second);
        }

        return command;
    }
}
