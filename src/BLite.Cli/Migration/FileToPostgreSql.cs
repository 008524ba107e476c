using BLite.Bson;
using BLite.Cli.Commands;
using BLite.Cli.Output;
using BLite.Core;
using BLite.Core.Collections;
using BLite.PostgreSql.Storage;
using Npgsql;
using NpgsqlTypes;

namespace BLite.Cli.Migration;

/// <summary>
/// Copies every collection of a database file into PostgreSQL as the provider stores it (a table per
/// collection, the catalog row, the indexes), batch by batch. Each batch commits on its own and
/// skips ids already there, so an interrupted move is resumed by running it again, and a finished
/// one repeated changes nothing.
/// </summary>
internal sealed class FileToPostgreSql(DocumentDatabase source, NpgsqlDataSource target, CommandContext context, int batchSize)
{
    public List<MigratedCollection> Run()
    {
        SchemaCache.Apply(target, SqlFunctions.Script);
        var moved = new List<MigratedCollection>();
        using var read = source.BeginRead();
        foreach (var name in source.GetCollectionNames(read))
        {
            moved.Add(Copy(read, source.GetRawCollection(name)));
        }

        return moved;
    }

    private MigratedCollection Copy(Core.Storage.IPageReader read, RawCollection collection)
    {
        var fields = source.Fields;
        var total = collection.Count(read);
        var shapes = new PathShapes(collection.GetIndexes(read));
        var table = SqlNames.Quote(collection.Name);
        Type? keyType = null;
        long processed = 0;
        long inserted = 0;
        var batch = new List<(BsonValue Id, byte[] Jsonb)>(batchSize);
        using (var progress = ProgressBar.Start(context, "moving " + collection.Name, total, "documents"))
        {
            var cursor = collection.Scan(read);
            while (cursor.MoveNext())
            {
                var document = cursor.Document.Span;
                var id = MigrationDocuments.Id(document, fields);
                if (keyType is null)
                {
                    keyType = KeyType(id, collection.Name);
                    Execute(IndexSql.TableStatement(collection.Name, keyType));
                }

                shapes.Observe(document, fields);
                batch.Add((id, MigrationDocuments.ToJsonb(document, fields)));
                if (batch.Count == batchSize)
                {
                    processed += batch.Count;
                    inserted += Flush(table, keyType, batch);
                    progress.Report(processed);
                }
            }

            keyType ??= typeof(ObjectId);
            Execute(IndexSql.TableStatement(collection.Name, keyType));
            processed += batch.Count;
            inserted += Flush(table, keyType, batch);
            progress.Report(processed);
        }

        var indexes = collection.GetIndexes(read);
        Execute(IndexSql.CatalogStatement(collection.Name, keyType.Name, indexes.Select(i => (i.Name, i.FieldPaths.ToArray(), i.Unique))) + shapes.IndexStatements(collection.Name, indexes)
            + (keyType == typeof(int) || keyType == typeof(long) ? IndexSql.SequenceStatement(collection.Name) : ""));
        return new MigratedCollection(collection.Name, total, inserted);
    }

    /// <summary>Stages the batch with binary COPY, then inserts the ids not yet there, in one transaction.</summary>
    private long Flush(string table, Type keyType, List<(BsonValue Id, byte[] Jsonb)> batch)
    {
        if (batch.Count == 0)
        {
            return 0;
        }

        using var connection = target.OpenConnection();
        using var transaction = connection.BeginTransaction();
        using (var create = new NpgsqlCommand($"CREATE TEMP TABLE blite_migrate_stage (id {SqlNames.IdColumnType(keyType)}, doc jsonb) ON COMMIT DROP", connection, transaction))
        {
            create.ExecuteNonQuery();
        }

        using (var copy = connection.BeginBinaryImport("COPY blite_migrate_stage (id, doc) FROM STDIN (FORMAT BINARY)"))
        {
            foreach (var (id, jsonb) in batch)
            {
                copy.StartRow();
                copy.Write(SqlNames.IdValue(id), IdDbType(keyType));
                copy.Write(System.Text.Encoding.UTF8.GetString(jsonb), NpgsqlDbType.Jsonb);
            }

            copy.Complete();
        }

        long inserted;
        using (var insert = new NpgsqlCommand($"INSERT INTO {table} (id, doc) SELECT id, doc FROM blite_migrate_stage ON CONFLICT (id) DO NOTHING", connection, transaction))
        {
            inserted = insert.ExecuteNonQuery();
        }

        transaction.Commit();
        batch.Clear();
        return inserted;
    }

    private void Execute(string sql)
    {
        using var connection = target.OpenConnection();
        using var command = new NpgsqlCommand(sql, connection);
        command.ExecuteNonQuery();
    }

    private static NpgsqlDbType IdDbType(Type keyType) =>
        keyType == typeof(ObjectId) ? NpgsqlDbType.Bytea
        : keyType == typeof(Guid) ? NpgsqlDbType.Uuid
        : keyType == typeof(int) ? NpgsqlDbType.Integer
        : keyType == typeof(long) ? NpgsqlDbType.Bigint
        : NpgsqlDbType.Text;

    private static Type KeyType(BsonValue id, string collection) => id.Type switch
    {
        BsonType.ObjectId => typeof(ObjectId),
        BsonType.String => typeof(string),
        BsonType.Int32 => typeof(int),
        BsonType.Int64 => typeof(long),
        BsonType.Binary when id.BinarySubtype == BsonBinarySubtype.Uuid => typeof(Guid),
        _ => throw new CommandException($"collection '{collection}' has an _id of type {id.Type}; PostgreSQL tables take ObjectId, Guid, int, long or string ids.", ExitCodes.Error),
    };
}

/// <summary>What moving one collection did: documents in the source, and how many were new in the target (the rest were there already).</summary>
internal sealed record MigratedCollection(string Name, long SourceCount, long Inserted);
