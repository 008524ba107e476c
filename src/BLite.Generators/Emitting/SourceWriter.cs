using System.Text;

namespace BLite.Generators.Emitting;

/// <summary>Builds indented C# text.</summary>
internal sealed class SourceWriter
{
    private readonly StringBuilder _builder = new();
    private int _indent;

    public SourceWriter Line(string text = "")
    {
        if (text.Length > 0)
        {
            _builder.Append(' ', _indent * 4);
        }

        _builder.Append(text).Append('\n');
        return this;
    }

    public SourceWriter Open(string text)
    {
        Line(text);
        Line("{");
        _indent++;
        return this;
    }

    public SourceWriter Open()
    {
        Line("{");
        _indent++;
        return this;
    }

    public SourceWriter Close(string suffix = "")
    {
        _indent--;
        Line("}" + suffix);
        return this;
    }

    public override string ToString() => _builder.ToString();
}
