using Npgsql;

namespace BLite.PostgreSql.Storage;

internal sealed partial class PostgreSqlCollection<TId, T>
{
    public TId Insert(T document) => Run((Table: this, Document: document), static (c, t, s) => s.Table.InsertOne(c, t, s.Document));

    public Task<TId> InsertAsync(T document, CancellationToken cancellationToken) =>
        RunAsync((Table: this, Document: document), static (c, t, s, token) => s.Table.InsertOneAsync(c, t, s.Document, token), cancellationToken);

    /// <summary>All or nothing: in the flow's transaction, or in one of its own on the connection.</summary>
    public int InsertMany(IEnumerable<T> documents) => Run((Table: this, Documents: documents), static (c, t, s) =>
    {
        if (t is not null)
        {
            return s.Table.InsertEach(c, t, s.Documents);
        }

        using var own = c.BeginTransaction();
        var count = s.Table.InsertEach(c, own, s.Documents);
        own.Commit();
        return count;
    });

    public Task<int> InsertManyAsync(IEnumerable<T> documents, CancellationToken cancellationToken) =>
        RunAsync((Table: this, Documents: documents), static async (c, t, s, token) =>
        {
            if (t is not null)
            {
                return await s.Table.InsertEachAsync(c, t, s.Documents, token).ConfigureAwait(false);
            }

            var own = await c.BeginTransactionAsync(token).ConfigureAwait(false);
            await using (own.ConfigureAwait(false))
            {
                var count = await s.Table.InsertEachAsync(c, own, s.Documents, token).ConfigureAwait(false);
                await own.CommitAsync(token).ConfigureAwait(false);
                return count;
            }
        }, cancellationToken);

    public bool Update(T document) => Run((Table: this, Document: document), static (c, t, s) =>
    {
        using var command = s.Table.Command(s.Table._updateSql, c, t, s.Table.IdParameter(s.Table._collection.Mapper.GetId(s.Document)), s.Table.DocumentParameter(s.Document));
        return s.Table.Guarded(t, s.Document, () => command.ExecuteNonQuery() > 0);
    });

    public Task<bool> UpdateAsync(T document, CancellationToken cancellationToken) =>
        RunAsync((Table: this, Document: document), static async (c, t, s, token) =>
        {
            await using var command = s.Table.Command(s.Table._updateSql, c, t, s.Table.IdParameter(s.Table._collection.Mapper.GetId(s.Document)), s.Table.DocumentParameter(s.Document));
            return await s.Table.GuardedAsync(t, s.Document, async () => await command.ExecuteNonQueryAsync(token).ConfigureAwait(false) > 0, token).ConfigureAwait(false);
        }, cancellationToken);

    public bool Upsert(T document) => Run((Table: this, Document: document), static (c, t, s) =>
    {
        if (s.Table.NeedsGeneratedId(s.Document))
        {
            s.Table.InsertOne(c, t, s.Document);
            return true;
        }

        using var command = s.Table.Command(s.Table._upsertSql, c, t, s.Table.IdParameter(s.Table._collection.Mapper.GetId(s.Document)), s.Table.DocumentParameter(s.Document));
        return s.Table.Guarded(t, s.Document, () => (bool)command.ExecuteScalar()!);
    });

    public Task<bool> UpsertAsync(T document, CancellationToken cancellationToken) =>
        RunAsync((Table: this, Document: document), static async (c, t, s, token) =>
        {
            if (s.Table.NeedsGeneratedId(s.Document))
            {
                await s.Table.InsertOneAsync(c, t, s.Document, token).ConfigureAwait(false);
                return true;
            }

            await using var command = s.Table.Command(s.Table._upsertSql, c, t, s.Table.IdParameter(s.Table._collection.Mapper.GetId(s.Document)), s.Table.DocumentParameter(s.Document));
            return await s.Table.GuardedAsync(t, s.Document, async () => (bool)(await command.ExecuteScalarAsync(token).ConfigureAwait(false))!, token).ConfigureAwait(false);
        }, cancellationToken);

    public bool Delete(TId id) => Run((Table: this, Id: id), static (c, t, s) =>
    {
        using var command = s.Table.Command(s.Table._deleteSql, c, t, s.Table.IdParameter(s.Id));
        return command.ExecuteNonQuery() > 0;
    });

    public Task<bool> DeleteAsync(TId id, CancellationToken cancellationToken) =>
        RunAsync((Table: this, Id: id), static async (c, t, s, token) =>
        {
            await using var command = s.Table.Command(s.Table._deleteSql, c, t, s.Table.IdParameter(s.Id));
            return await command.ExecuteNonQueryAsync(token).ConfigureAwait(false) > 0;
        }, cancellationToken);

    private bool NeedsGeneratedId(T document) => _ids.CanGenerate && _ids.IsUnassigned(_collection.Mapper.GetId(document));

    private int InsertEach(NpgsqlConnection connection, NpgsqlTransaction transaction, IEnumerable<T> documents)
    {
        var count = 0;
        foreach (var document in documents)
        {
            ArgumentNullException.ThrowIfNull(document, nameof(documents));
            InsertOne(connection, transaction, document);
            count++;
        }

        return count;
    }

    private async Task<int> InsertEachAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, IEnumerable<T> documents, CancellationToken cancellationToken)
    {
        var count = 0;
        foreach (var document in documents)
        {
            ArgumentNullException.ThrowIfNull(document, nameof(documents));
            await InsertOneAsync(connection, transaction, document, cancellationToken).ConfigureAwait(false);
            count++;
        }

        return count;
    }

    /// <summary>
    /// ON CONFLICT DO NOTHING keeps a duplicate from aborting the caller's PostgreSQL transaction:
    /// as embedded, a refused insert changes nothing and the transaction stays usable. The common
    /// case is that one statement, on the collection's reused command.
    /// </summary>
    private TId InsertOne(NpgsqlConnection connection, NpgsqlTransaction? transaction, T document)
    {
        long? sequenceValue = null;
        if (_ids.UsesSequence && NeedsGeneratedId(document))
        {
            using var next = new NpgsqlCommand(_nextIdSql, connection, transaction);
            sequenceValue = (long)next.ExecuteScalar()!;
        }

        var (id, generated) = AssignId(document, sequenceValue);
        try
        {
            var command = BindInsert(connection, transaction, id, document);
            var inserted = command.ExecuteNonQuery();
            _insert.Return(command);
            if (inserted == 0)
            {
                if (Exists(connection, transaction, id))
                {
                    throw DuplicateId(id);
                }

                // Refused by a unique secondary index: the plain insert names it.
                using var plain = Command(_insertPlainSql, connection, transaction, IdParameter(id), DocumentParameter(document));
                Guarded(transaction, document, plain.ExecuteNonQuery);
            }
        }
        catch when (generated)
        {
            _collection.Mapper.SetId(document, default!);
            throw;
        }

        return id;
    }

    private async Task<TId> InsertOneAsync(NpgsqlConnection connection, NpgsqlTransaction? transaction, T document, CancellationToken cancellationToken)
    {
        long? sequenceValue = null;
        if (_ids.UsesSequence && NeedsGeneratedId(document))
        {
            await using var next = new NpgsqlCommand(_nextIdSql, connection, transaction);
            sequenceValue = (long)(await next.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false))!;
        }

        var (id, generated) = AssignId(document, sequenceValue);
        try
        {
            var command = BindInsert(connection, transaction, id, document);
            var inserted = await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
            _insert.Return(command);
            if (inserted == 0)
            {
                if (await ExistsAsync(connection, transaction, id, cancellationToken).ConfigureAwait(false))
                {
                    throw DuplicateId(id);
                }

                await using var plain = Command(_insertPlainSql, connection, transaction, IdParameter(id), DocumentParameter(document));
                await GuardedAsync(transaction, document, () => plain.ExecuteNonQueryAsync(cancellationToken), cancellationToken).ConfigureAwait(false);
            }
        }
        catch when (generated)
        {
            _collection.Mapper.SetId(document, default!);
            throw;
        }

        return id;
    }

    /// <summary>
    /// The reused insert command bound to this call. A command whose execution throws is simply
    /// not returned: the next call builds a fresh one.
    /// </summary>
    private NpgsqlCommand BindInsert(NpgsqlConnection connection, NpgsqlTransaction? transaction, TId id, T document)
    {
        var key = IdValue(id);
        var jsonb = DocumentJsonb(document);
        var command = _insert.Rent(connection, transaction);
        command.Parameters[0].Value = key;
        command.Parameters[1].Value = jsonb;
        return command;
    }

    /// <summary>
    /// The document's id, generated (and set on it) when left at its default value, as embedded.
    /// <paramref name="sequenceValue"/> is the sequence's next value when the id comes from it.
    /// </summary>
    private (TId Id, bool Generated) AssignId(T document, long? sequenceValue)
    {
        var id = _collection.Mapper.GetId(document);
        if (_ids.CanGenerate && _ids.IsUnassigned(id))
        {
            id = _ids.UsesSequence ? _ids.FromSequence(sequenceValue!.Value) : _ids.NewRandom();
            _collection.Mapper.SetId(document, id);
            return (id, true);
        }

        if (id is null)
        {
            throw new ArgumentException($"A {typeof(T).Name} needs an id: {typeof(TId).Name} ids are not generated.", nameof(document));
        }

        return (id, false);
    }

    private BLiteUniqueConstraintException DuplicateId(TId id) =>
        new(_collection.Name, BLiteUniqueConstraintException.PrimaryIndexName, SqlNames.Describe(_ids.ToKey(id)));
}
