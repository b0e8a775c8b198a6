import sys

from madang.cli import main

sys.exit(main())
