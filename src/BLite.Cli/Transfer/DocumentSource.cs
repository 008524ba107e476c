using System.Text;
using BLite.Bson;
using BLite.Bson.Interop;
using BLite.Cli.Commands;

namespace BLite.Cli.Transfer;

/// <summary>
/// Reads documents to import from a stream, naming the line (JSON lines) or byte offset
/// (standard BSON) of any malformed input in the one-line error.
/// </summary>
internal static class DocumentSource
{
    public static IEnumerable<BsonDocument> Read(Stream input, TransferFormat format, string inputName, BsonJsonParseMode jsonMode = BsonJsonParseMode.Standard) => format switch
    {
        TransferFormat.Bson => ReadBson(input, inputName),
        _ => ReadJsonLines(input, inputName, jsonMode),
    };

    private static IEnumerable<BsonDocument> ReadJsonLines(Stream input, string inputName, BsonJsonParseMode jsonMode)
    {
        using var reader = new StreamReader(input, new UTF8Encoding(false, throwOnInvalidBytes: true), detectEncodingFromByteOrderMarks: true, bufferSize: 1 << 16, leaveOpen: true);
        long lineNumber = 0;
        while (true)
        {
            string? line;
            try
            {
                line = reader.ReadLine();
            }
            catch (DecoderFallbackException)
            {
                throw new CommandException($"{inputName}, line {lineNumber + 1}: the input is not valid UTF-8.");
            }

            if (line is null)
            {
                yield break;
            }

            lineNumber++;
            if (string.IsNullOrWhiteSpace(line))
            {
                continue;
            }

            BsonDocument document;
            try
            {
                document = BsonDocument.Parse(line, jsonMode);
            }
            catch (BsonFormatException exception)
            {
                throw new CommandException($"{inputName}, line {lineNumber}: {exception.Message}", exception);
            }

            yield return document;
        }
    }

    private static IEnumerable<BsonDocument> ReadBson(Stream input, string inputName)
    {
        using var documents = StandardBsonReader.ReadDocuments(input).GetEnumerator();
        while (true)
        {
            try
            {
                if (!documents.MoveNext())
                {
                    yield break;
                }
            }
            catch (BsonFormatException exception)
            {
                throw new CommandException($"{inputName}: {exception.Message}", exception);
            }

            yield return documents.Current;
        }
    }
}
