using BLite.Bson;
using BLite.Core;
using BLite.Core.Collections;
using BLite.PostgreSql.Storage;
using Npgsql;

namespace BLite.Cli.Migration;

/// <summary>
/// Checks a finished move: the same number of documents on both sides, and a sample of documents
/// (spread over the whole collection) equal byte for byte once each side is in canonical field order.
/// </summary>
internal static class MigrationVerifier
{
    public const int SampleSize = 200;

    /// <summary>Null when everything matches, else what differs.</summary>
    public static string? Verify(DocumentDatabase file, NpgsqlDataSource postgres, string collectionName, out int sampled)
    {
        sampled = 0;
        var fields = file.Fields;
        using var read = file.BeginRead();
        var collection = file.GetRawCollection(collectionName);
        var fileCount = collection.Count(read);
        using var connection = postgres.OpenConnection();
        var table = SqlNames.Quote(collectionName);
        using (var count = new NpgsqlCommand($"SELECT count(*) FROM {table}", connection))
        {
            var serverCount = (long)count.ExecuteScalar()!;
            if (serverCount != fileCount)
            {
                return $"'{collectionName}': {fileCount} document(s) in the file, {serverCount} in PostgreSQL";
            }
        }

        var step = Math.Max(1, fileCount / SampleSize);
        long position = 0;
        var cursor = collection.Scan(read);
        string? idType;
        using (var catalog = new NpgsqlCommand("SELECT id_type FROM blite_collections WHERE name = $1", connection))
        {
            catalog.Parameters.Add(new NpgsqlParameter { Value = collectionName });
            idType = catalog.ExecuteScalar() as string;
        }

        using var find = new NpgsqlCommand($"SELECT doc FROM {table} WHERE id = $1", connection);
        var parameter = new NpgsqlParameter();
        find.Parameters.Add(parameter);
        while (cursor.MoveNext())
        {
            if (position++ % step != 0)
            {
                continue;
            }

            sampled++;
            var document = cursor.Document.Span;
            var id = MigrationDocuments.Id(document, fields);
            parameter.Value = idType == IndexSql.EncodedKeyIdType ? IndexKeys.EncodeId(id) : SqlNames.IdValue(id);
            if (find.ExecuteScalar() is not string jsonb)
            {
                return $"'{collectionName}': _id {id} is missing in PostgreSQL";
            }

            var copy = MigrationDocuments.ToBson(System.Text.Encoding.UTF8.GetBytes(jsonb), fields);
            if (!MigrationDocuments.Canonical(document, fields).AsSpan().SequenceEqual(MigrationDocuments.Canonical(copy, fields)))
            {
                return $"'{collectionName}': _id {id} differs between the file and PostgreSQL";
            }
        }

        return null;
    }
}
