namespace BLite.Samples.QuickStart;

internal static class Program
{
    private static int Main()
    {
        Console.WriteLine("BLite quick start");
        return 0;
    }
}
