from kernelscope.cli import main

main()
