using System.Text;
using BLite.Bson;
using BLite.Cli.Commands;

namespace BLite.Cli.Output;

/// <summary>Writes one Extended JSON document per line ("\n", UTF-8 without BOM) through a large buffer.</summary>
internal sealed class JsonLinesWriter : IDisposable
{
    private readonly StreamWriter _writer;

    public JsonLinesWriter(Stream stream, bool leaveOpen)
    {
        _writer = new StreamWriter(stream, new UTF8Encoding(false), 1 << 16, leaveOpen) { NewLine = "\n" };
    }

    public static JsonLinesWriter ToStandardOutput(CommandContext context)
    {
        context.Output.Flush();
        return new JsonLinesWriter(context.OpenStandardOutput(), leaveOpen: false);
    }

    public void Write(BsonDocument document, BsonJsonMode mode) => _writer.WriteLine(document.ToJson(mode));

    /// <summary>Pushes the lines written so far out, for a consumer reading as they come (<c>blite watch</c>).</summary>
    public void Flush() => _writer.Flush();

    public void Dispose() => _writer.Dispose();
}
