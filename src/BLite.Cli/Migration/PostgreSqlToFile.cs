using System.Text.Json;
using BLite.Cli.Commands;
using BLite.Cli.Output;
using BLite.Core;
using BLite.Core.Collections;
using BLite.PostgreSql.Storage;
using Npgsql;

namespace BLite.Cli.Migration;

/// <summary>
/// Copies every collection listed in PostgreSQL's <c>blite_collections</c> into a database file,
/// with its declared indexes, in id order, batch by batch. Each batch commits on its own and skips
/// ids the file already holds, so running it again resumes or changes nothing.
/// </summary>
internal sealed class PostgreSqlToFile(NpgsqlDataSource source, DocumentDatabase target, CommandContext context, int batchSize)
{
    public List<MigratedCollection> Run()
    {
        var moved = new List<MigratedCollection>();
        foreach (var (name, indexes) in Catalog(source))
        {
            using (var write = target.BeginWrite())
            {
                target.EnsureSchema(write, [new CollectionDefinition(name, indexes)]);
                write.Commit();
            }

            moved.Add(Copy(name));
        }

        return moved;
    }

    /// <summary>The collections and their declared indexes; a database without the catalog is not a BLite one.</summary>
    public static List<(string Name, List<IndexDefinition> Indexes)> Catalog(NpgsqlDataSource source)
    {
        using var connection = source.OpenConnection();
        using var exists = new NpgsqlCommand("SELECT to_regclass('blite_collections') IS NOT NULL", connection);
        if (!(bool)exists.ExecuteScalar()!)
        {
            throw new CommandException("the PostgreSQL database holds no BLite collections (no blite_collections table in its search path).", ExitCodes.Error);
        }

        using var command = new NpgsqlCommand("SELECT name, indexes::text FROM blite_collections ORDER BY name", connection);
        using var reader = command.ExecuteReader();
        var collections = new List<(string, List<IndexDefinition>)>();
        while (reader.Read())
        {
            var indexes = new List<IndexDefinition>();
            using var json = JsonDocument.Parse(reader.GetString(1));
            foreach (var index in json.RootElement.EnumerateArray())
            {
                var paths = index.GetProperty("paths").EnumerateArray().Select(p => p.GetString()!).ToArray();
                indexes.Add(new IndexDefinition(index.GetProperty("name").GetString()!, paths, index.GetProperty("unique").GetBoolean()));
            }

            collections.Add((reader.GetString(0), indexes));
        }

        return collections;
    }

    private MigratedCollection Copy(string name)
    {
        var table = SqlNames.Quote(name);
        var collection = target.GetRawCollection(name);
        long total;
        using (var connection = source.OpenConnection())
        using (var count = new NpgsqlCommand($"SELECT count(*) FROM {table}", connection))
        {
            total = (long)count.ExecuteScalar()!;
        }

        long processed = 0;
        long inserted = 0;
        object? lastId = null;
        using var progress = ProgressBar.Start(context, "moving " + name, total, "documents");
        while (true)
        {
            var rows = ReadBatch(table, lastId);
            if (rows.Count == 0)
            {
                break;
            }

            using (var write = target.BeginWrite())
            {
                foreach (var (_, jsonb) in rows)
                {
                    var document = MigrationDocuments.ToBson(jsonb, target.Fields);
                    if (!collection.ContainsId(write, collection.GetPrimaryKey(document)))
                    {
                        collection.Insert(write, document);
                        inserted++;
                    }
                }

                write.Commit();
            }

            processed += rows.Count;
            lastId = rows[^1].Id;
            progress.Report(processed);
        }

        return new MigratedCollection(name, total, inserted);
    }

    /// <summary>The next rows after <paramref name="lastId"/> in id order (keyset paging: each batch is one index range).</summary>
    private List<(object Id, byte[] Jsonb)> ReadBatch(string table, object? lastId)
    {
        using var connection = source.OpenConnection();
        using var command = new NpgsqlCommand(
            lastId is null ? $"SELECT id, doc FROM {table} ORDER BY id LIMIT $1" : $"SELECT id, doc FROM {table} WHERE id > $2 ORDER BY id LIMIT $1", connection);
        command.Parameters.Add(new NpgsqlParameter { Value = batchSize });
        if (lastId is not null)
        {
            command.Parameters.Add(new NpgsqlParameter { Value = lastId });
        }

        using var reader = command.ExecuteReader();
        var rows = new List<(object, byte[])>(batchSize);
        while (reader.Read())
        {
            rows.Add((reader.GetValue(0), reader.GetFieldValue<byte[]>(1)));
        }

        return rows;
    }
}
