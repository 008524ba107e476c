namespace BLite.Cli.Output;

/// <summary>Left-aligned columns separated by two spaces, for the human-readable reports.</summary>
internal sealed class TableWriter
{
    private readonly List<string[]> _rows = [];

    public TableWriter(params string[] header)
    {
        _rows.Add(header);
    }

    public void AddRow(params string[] cells) => _rows.Add(cells);

    public void WriteTo(TextWriter output)
    {
        var widths = new int[_rows[0].Length];
        foreach (var row in _rows)
        {
            for (var i = 0; i < row.Length; i++)
            {
                widths[i] = Math.Max(widths[i], row[i].Length);
            }
        }

        foreach (var row in _rows)
        {
            var line = new System.Text.StringBuilder();
            for (var i = 0; i < row.Length; i++)
            {
                if (i > 0)
                {
                    line.Append("  ");
                }

                line.Append(i == row.Length - 1 ? row[i] : row[i].PadRight(widths[i]));
            }

            output.WriteLine(line.ToString().TrimEnd());
        }
    }
}
